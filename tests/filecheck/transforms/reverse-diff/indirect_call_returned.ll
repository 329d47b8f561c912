; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; An indirect call through the pointer a function returns: @pick can only return @sq or @half,
; so those two are the candidates (no stop needed), and @cube, of the same type and with its
; address taken, is not one.

@keep = global ptr @cube, align 8

declare double @__enzyme_autodiff(...)

define internal double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define internal double @cube(double %x) {
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}

define internal double @half(double %x) {
  %r = fmul double %x, 5.000000e-01
  ret double %r
}

define internal ptr @pick(i64 %k) noinline {
  %c = icmp sgt i64 %k, 0
  br i1 %c, label %a, label %b
a:
  br label %done
b:
  br label %done
done:
  %p = phi ptr [ @sq, %a ], [ @half, %b ]
  ret ptr %p
}

define double @f(double %x, i64 %k) {
  %h = call ptr @pick(i64 %k)
  %r = call double %h(double %x)
  ret double %r
}

define double @df(double %x, i64 %k) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, i64 %k)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK:         %[[H:.*]] = llvm.call @pick(%{{.*}}) : (i64) -> !llvm.ptr
; CHECK-NEXT:    %[[SQ:.*]] = llvm.mlir.addressof @sq : !llvm.ptr
; CHECK-NEXT:    %[[IS_SQ:.*]] = llvm.icmp "eq" %[[H]], %[[SQ]] : !llvm.ptr
; CHECK-NEXT:    llvm.cond_br %[[IS_SQ]], ^{{.*}}, ^{{.*}}
; CHECK-NOT:     llvm.icmp
; CHECK-NOT:     @augmented_cube
; CHECK-DAG:     llvm.call @augmented_sq(
; CHECK-DAG:     llvm.call @augmented_half(
; CHECK-NOT:     @xenzyme.message
; CHECK:         llvm.return
