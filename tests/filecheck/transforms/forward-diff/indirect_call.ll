; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; Indirect calls in forward mode.  Loaded from the constant table @ops, the pointer can only
; hold @sq or @cube: the call becomes a comparison choosing between direct calls to their
; tangent functions.  The argument %g may hold any function of its type whose address is
; taken (@sq, @cube, @half): each is compared in turn, and any other pointer stops the program
; (write + abort) instead of producing a wrong derivative.  The second call through %g has no
; tangent: it stays an indirect call.

@ops = internal constant [2 x ptr] [ptr @sq, ptr @cube], align 16
@keep = global ptr @half, align 8

declare double @__enzyme_fwddiff(...)

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

define double @f(double %x, i64 %k, ptr %g) {
  %slot = getelementptr inbounds [2 x ptr], ptr @ops, i64 0, i64 %k
  %op = load ptr, ptr %slot, align 8
  %a = call double %op(double %x)
  %b = call double %g(double %a)
  %c = call double %g(double 2.000000e+00)
  %r = fadd double %b, %c
  ret double %r
}

define double @df(double %x, i64 %k, ptr %g) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, metadata !"enzyme_const", i64 %k, metadata !"enzyme_const", ptr %g)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @fwddiffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %{{[^:]+}}: i64, %[[G:[^:]+]]: !llvm.ptr) -> f64

; The table holds two functions: one comparison, the last candidate is the default.
; CHECK:         %[[OP:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
; CHECK-NEXT:    %[[SQ:.*]] = llvm.mlir.addressof @sq : !llvm.ptr
; CHECK-NEXT:    %[[IS_SQ:.*]] = llvm.icmp "eq" %[[OP]], %[[SQ]] : !llvm.ptr
; CHECK-NEXT:    llvm.cond_br %[[IS_SQ]], ^{{.*}}, ^{{.*}}
; CHECK-DAG:     llvm.call @fwddiffecube(%[[X]], %[[DX]]) : (f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK-DAG:     llvm.call @fwddiffesq(%[[X]], %[[DX]]) : (f64, f64) -> !llvm.struct<(f64, f64)>

; The argument may hold any of the three: three comparisons, then the stop.
; CHECK:         ^{{.*}}(%[[A:.*]]: f64, %[[DA:.*]]: f64):
; CHECK-NEXT:      llvm.mlir.addressof @sq
; CHECK-NEXT:      llvm.icmp "eq" %[[G]]
; CHECK:           llvm.mlir.addressof @cube
; CHECK-NEXT:      llvm.icmp "eq" %[[G]]
; CHECK:           llvm.mlir.addressof @half
; CHECK-NEXT:      llvm.icmp "eq" %[[G]]
; CHECK:           llvm.call @write(
; CHECK-NEXT:      llvm.call @abort()
; CHECK-DAG:     llvm.call @fwddiffehalf(%[[A]], %[[DA]])
; CHECK-DAG:     llvm.call @fwddiffecube(%[[A]], %[[DA]])
; CHECK-DAG:     llvm.call @fwddiffesq(%[[A]], %[[DA]])

; The call without a tangent stays indirect; the result is the tangent of %b.
; CHECK:         ^{{.*}}(%{{.*}}: f64, %[[DB:.*]]: f64):
; CHECK-NEXT:      llvm.call %[[G]](%{{.*}}) : !llvm.ptr, (f64) -> f64
; CHECK-NEXT:      llvm.fadd
; CHECK-NEXT:      llvm.return %[[DB]] : f64

; The message names the function and what happened.
; CHECK: llvm.mlir.global private constant @xenzyme.message("xenzyme: in the derivative of @f, a function pointer leads to a function that is not one of the candidates
