; RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s
; XFAIL: *

; The optimised gradient of f(x, y) = x * y + sin(x) should be cos(x) + y and x, with nothing
; else: adding the first contribution to a zero adjoint is an identity.
;
; Bug: adjoint slots start (and are cleared back) at +0.0, and `0.0 + d` is not `d` when d is
; -0.0, so LLVM may not fold it without fast-math: the optimised gradient keeps
; `fadd double %v, 0.000000e+00` for every adjoint, in loops once per iteration.  Starting and
; clearing at -0.0, the identity of fadd, would let LLVM remove them.

declare { double, double } @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define double @f(double %x, double %y) {
  %xy = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %x)
  %r = fadd double %xy, %s
  ret double %r
}

define { double, double } @grad(double %x, double %y) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: define { double, double } @grad(double %x, double %y)
; CHECK-NEXT:    %[[COS:.*]] = tail call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    %[[DX:.*]] = fadd double {{.*}}%y{{.*}}
; CHECK-NEXT:    %[[S0:.*]] = insertvalue { double, double } undef, double %[[DX]], 0
; CHECK-NEXT:    %[[S1:.*]] = insertvalue { double, double } %[[S0]], double %x, 1
; CHECK-NEXT:    ret { double, double } %[[S1]]
