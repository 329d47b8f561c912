; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; select: the adjoint goes to the operand that was chosen, zero to the other, with the primal
; condition.  A constant operand (2.0) gets nothing.  The comparison is integer-valued code: no
; adjoint, and it is used directly from the forward sweep.

declare { double, double } @__enzyme_autodiff(...)

define double @f(double %x, double %y) {
  %c = fcmp olt double %x, %y
  %s = select i1 %c, double %x, double %y
  %k = select i1 %c, double 2.0, double %x
  %r = fmul double %s, %k
  ret double %r
}

define { double, double } @g(double %x, double %y) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %{{[^:]+}}: f64, %{{[^:]+}}: f64, %[[SEED:[^:]+]]: f64)
; CHECK:         %[[C:.*]] = llvm.fcmp "olt" %{{.*}}, %{{.*}} : f64
; CHECK-NEXT:    %[[S:.*]] = llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, f64
; CHECK-NEXT:    %[[K:.*]] = llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, f64
; CHECK:         llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:

; r = s * k: d_s = seed * k, d_k = seed * s (SSA values).
; CHECK-NEXT:    %[[DS:.*]] = llvm.fmul %[[SEED]], %[[K]] : f64
; CHECK-NEXT:    %[[DK:.*]] = llvm.fmul %[[SEED]], %[[S]] : f64

; %k = select %c, 2.0, %x: only %x, on the false side.
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[SK:.*]] = llvm.select %[[C]], %[[Z1]], %[[DK]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[SK]] : !llvm.ptr, f64

; %s = select %c, %x, %y: both sides.
; CHECK-NEXT:    %[[Z2:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[SX:.*]] = llvm.select %[[C]], %[[DS]], %[[Z2]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[SX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[SY:.*]] = llvm.select %[[C]], %[[Z2]], %[[DS]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[SY]] : !llvm.ptr, f64
; CHECK-NOT:     llvm.fcmp
; CHECK:         llvm.return
