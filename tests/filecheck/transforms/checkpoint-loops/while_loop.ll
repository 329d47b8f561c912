; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=binomial checkpoints=4}' | filecheck %s
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=online checkpoints=5}' | filecheck %s --check-prefix=ONLINE

; A loop run until its test fails (Newton's iteration to convergence): the step keeps the test
; and stores whether another step is wanted; the loop is called with n = -1 (count as it runs).

declare double @__enzyme_autodiff(...)
declare double @llvm.fabs.f64(double)

define double @f(ptr %p, double %x0) {
entry:
  %a = load double, ptr %p
  br label %loop

loop:
  %x = phi double [ %x0, %entry ], [ %x.next, %loop ]
  %q = fdiv double %a, %x
  %s = fadd double %x, %q
  %x.next = fmul double %s, 0.5
  %sq = fmul double %x.next, %x.next
  %e = fsub double %sq, %a
  %d = call double @llvm.fabs.f64(double %e)
  %far = fcmp ogt double %d, 1.0e-12
  br i1 %far, label %loop, label %done

done:
  ret double %x.next
}

define void @g(ptr %p, ptr %dp, double %x0) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, double %x0)
  ret void
}

; CHECK-LABEL: llvm.func @f(
; CHECK:         %[[UNKNOWN:.*]] = llvm.mlir.constant(-1) : i64
; CHECK:         llvm.call @__xenzyme_ckpt.f.0.loop(%[[UNKNOWN]], %{{.*}})
; CHECK-LABEL: llvm.func internal @__xenzyme_ckpt.f.0.step(
; CHECK:         %[[FAR:.*]] = llvm.fcmp "ogt"
; CHECK:         %[[FLAG:.*]] = llvm.getelementptr %{{.*}}[24] : (!llvm.ptr) -> !llvm.ptr, i8
; CHECK:         llvm.store %[[FAR]], %[[FLAG]] : i1, !llvm.ptr
; CHECK:         llvm.return
; The primal loop runs until the step stores 0; the runtime is told where that byte is.
; CHECK-LABEL: llvm.func internal @__xenzyme_ckpt.f.0.loop(
; CHECK:         llvm.getelementptr %{{.*}}[24] : (!llvm.ptr) -> !llvm.ptr, i8
; CHECK:         llvm.icmp "ne"
; CHECK-LABEL: llvm.func internal @__xenzyme_ckpt.f.0.augment(
; CHECK-DAG:     %[[FLAGAT:.*]] = llvm.mlir.constant(24) : i64
; CHECK:         llvm.call @__xenzyme_checkpoint_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGAT]],

; The online scheme: the runtime's scheme 3, with its 5 snapshots placed as the loop runs.
; ONLINE:      llvm.call @__xenzyme_ckpt.f.0.loop(%{{.*}}, %{{.*}})
; ONLINE:      autodiff.autodiff @__xenzyme_ckpt.f.0.step(%{{.*}}) activity [dup] ret none
; ONLINE:      llvm.func internal @__xenzyme_ckpt.f.0.augment(
; ONLINE-DAG:    %[[SCHEME:.*]] = llvm.mlir.constant(3) : i64
; ONLINE-DAG:    %[[SLOTS:.*]] = llvm.mlir.constant(5) : i64
; ONLINE:        llvm.call @__xenzyme_checkpoint_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SCHEME]], %[[SLOTS]])
