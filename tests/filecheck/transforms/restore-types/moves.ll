; RUN: xenzyme-opt %s -p raise-enzyme-calls,restore-types | filecheck %s

; A double handed to a function as the bits of an i64, stored there into memory the caller reads
; as a double and made a double again there (the copy's parameter, cast to i64 at entry and back:
; the parameter itself); bits returned and made a double again; an integer load only made a double.

declare double @__enzyme_autodiff(...)
declare ptr @malloc(i64)

define ptr @store_bits(i64 %bits, i64 %tag) {
  %d = call ptr @malloc(i64 24)
  store i64 %bits, ptr %d
  %t = getelementptr i8, ptr %d, i64 8
  store i64 %tag, ptr %t
  %f = bitcast i64 %bits to double
  %h = fmul double %f, 5.000000e-01
  %u = getelementptr i8, ptr %d, i64 16
  store double %h, ptr %u
  ret ptr %d
}

define i64 @bits_of(double %x) {
  %b = bitcast double %x to i64
  ret i64 %b
}

define double @f(double %x, ptr %p) {
  %b = bitcast double %x to i64
  %d = call ptr @store_bits(i64 %b, i64 3)
  %v = load double, ptr %d
  %r = call i64 @bits_of(double %v)
  %y = bitcast i64 %r to double
  %sq = fmul double %x, %x
  %sb = bitcast double %sq to i64
  store i64 %sb, ptr %p
  %l = load i64, ptr %p
  %z = bitcast i64 %l to double
  %s = fadd double %y, %z
  ret double %s
}

define double @g(double %x, ptr %p, ptr %dp) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, ptr %p, ptr %dp)
  ret double %r
}

; The copies take and return the float; the original functions stay for other callers.
; CHECK-LABEL: llvm.func @store_bits(
; CHECK-LABEL: llvm.func internal @store_bits.fbits.0(
; CHECK-SAME:      %[[F:.*]]: f64, %{{.*}}: i64) -> !llvm.ptr
; CHECK:         llvm.store %[[F]], %{{.*}} : f64, !llvm.ptr
; CHECK-NOT:     llvm.bitcast %{{.*}} : i64 to f64
; CHECK:         llvm.fmul %[[F]], %{{.*}} : f64
; CHECK-LABEL: llvm.func @bits_of(
; CHECK-LABEL: llvm.func internal @bits_of.fbits.ret(
; CHECK-SAME:      %[[X:.*]]: f64) -> f64
; CHECK:         llvm.return %[[X]] : f64
; CHECK-LABEL: llvm.func @f(
; CHECK-SAME:      %[[A:[^:]*]]: f64
; CHECK:         %{{.*}} = llvm.call @store_bits.fbits.0(%[[A]], %{{.*}}) : (f64, i64) -> !llvm.ptr
; CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
; CHECK:         %[[Y:.*]] = llvm.call @bits_of.fbits.ret(%[[V]]) : (f64) -> f64
; CHECK:         %[[SQ:.*]] = llvm.fmul %[[A]], %[[A]]
; CHECK:         llvm.store %[[SQ]], %{{.*}} : f64, !llvm.ptr
; CHECK:         %[[Z:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
; CHECK:         llvm.fadd %[[Y]], %[[Z]]
