; RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s
; RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s --check-prefix=LOOP

; The optimised gradient of f(x, y) = x * y + sin(x) is cos(x) + y and x, with nothing else:
; adding the first contribution to a zero adjoint is an identity.  Adjoint slots start (and are
; cleared back) at -0.0, the identity of fadd; at +0.0 they would not fold, since `+0.0 + d` is
; not `d` when d is -0.0, and every adjoint kept an `fadd double %v, 0.000000e+00`, in loops
; once per iteration.

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

; In a loop, each iteration's adjoints are cleared and start again: no addition of a zero.
define double @sumsq(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

declare void @__enzyme_autodiff_loop(...)

define void @grad_sumsq(ptr %x, ptr %dx, i64 %n) {
  call void (...) @__enzyme_autodiff_loop(ptr @sumsq, ptr %x, ptr %dx, i64 %n)
  ret void
}

; LOOP-LABEL: define void @grad_sumsq(
; LOOP-NOT:     0.000000e+00
; LOOP:         ret void
