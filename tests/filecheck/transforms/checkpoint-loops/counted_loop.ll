; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=binomial checkpoints=4}' | filecheck %s
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=periodic period=10}' | filecheck %s --check-prefix=PERIODIC
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{budget-mb=2.5}' | filecheck %s --check-prefix=BUDGET

; A counted loop carrying x (and its counter), reading the scalar a and the array p: it becomes
; a call of the checkpointed loop, on a state of the counter, x, the value left (x.next) and a.

declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define double @f(ptr %p, double %x0, i64 %n) {
entry:
  %a = load double, ptr %p
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %loop, label %done

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi double [ %x0, %entry ], [ %x.next, %loop ]
  %s = call double @llvm.sin.f64(double %x)
  %q = getelementptr double, ptr %p, i64 1
  %b = load double, ptr %q
  %t = fmul double %s, %a
  %u = fmul double %t, %b
  %x.next = fadd double %x, %u
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %done

done:
  %r = phi double [ %x0, %entry ], [ %x.next, %loop ]
  ret double %r
}

define void @g(ptr %p, ptr %dp, double %x0, i64 %n) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, double %x0, i64 %n)
  ret void
}

; The loop is gone from @f: the state is stored, the trip count computed, the loop called.
; CHECK-LABEL: llvm.func @f(
; CHECK:         %[[S:.*]] = llvm.alloca %{{.*}} x !llvm.array<32 x i8>
; CHECK:       ^[[SITE:.*]](%[[I0:.*]]: i64, %[[X0:.*]]: f64):
; CHECK:         llvm.store %[[I0]], %[[S]]
; CHECK:         llvm.store %[[X0]], %{{.*}}
; CHECK:         llvm.call @__xenzyme_ckpt.f.0.loop(%{{.*}}, %[[S]], %p) : (i64, !llvm.ptr, !llvm.ptr) -> ()
; CHECK:         %[[OUT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
; CHECK:         llvm.br ^{{.*}}(%[[OUT]] : f64)
; CHECK-NOT:     llvm.intr.sin
; CHECK:       }

; One iteration: load the state, run the body, store the next state and the value left.
; CHECK-LABEL: llvm.func internal @__xenzyme_ckpt.f.0.step(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
; CHECK:         llvm.intr.sin
; CHECK:         llvm.store
; CHECK:         llvm.return
; CHECK:       llvm.mlir.global internal @__enzyme_register_gradient___xenzyme_ckpt.f.0.loop()

; The step's own gradient is a derivative request; the loop has a custom gradient.
; CHECK:       autodiff.autodiff @__xenzyme_ckpt.f.0.step(%{{.*}}) activity [dup, dup] ret none
; CHECK:       llvm.func internal @__xenzyme_ckpt.f.0.augment(
; CHECK-DAG:     %[[SCHEME:.*]] = llvm.mlir.constant(0) : i64
; CHECK-DAG:     %[[C:.*]] = llvm.mlir.constant(4) : i64
; CHECK:         llvm.call @__xenzyme_checkpoint_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SCHEME]], %[[C]])
; CHECK:       llvm.mlir.global weak {{.*}}@__xenzyme_checkpoint_steps(0 : i64)
; CHECK:       llvm.func internal {{.*}}@__xenzyme_checkpoint_reverse(

; Periodic reversal calls the gradient of whole segments (scheme 1, period 10).
; PERIODIC:    autodiff.autodiff @__xenzyme_ckpt.f.0.segment(%{{.*}}) activity [const, dup, dup] ret none
; PERIODIC:    llvm.func internal @__xenzyme_ckpt.f.0.augment(
; PERIODIC-DAG:  %[[SCHEME:.*]] = llvm.mlir.constant(1) : i64
; PERIODIC-DAG:  %[[PERIOD:.*]] = llvm.mlir.constant(10) : i64
; PERIODIC:      llvm.call @__xenzyme_checkpoint_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SCHEME]], %[[PERIOD]])

; A budget is binomial with the snapshots it holds, counted by the runtime: scheme 2, its bytes.
; BUDGET:      autodiff.autodiff @__xenzyme_ckpt.f.0.step(%{{.*}}) activity [dup, dup] ret none
; BUDGET:      llvm.func internal @__xenzyme_ckpt.f.0.augment(
; BUDGET-DAG:    %[[SCHEME:.*]] = llvm.mlir.constant(2) : i64
; BUDGET-DAG:    %[[BYTES:.*]] = llvm.mlir.constant(2621440) : i64
; BUDGET:        llvm.call @__xenzyme_checkpoint_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SCHEME]], %[[BYTES]])
; BUDGET-DAG:  llvm.mlir.global weak {{.*}}@__xenzyme_checkpoint_steps(0 : i64)
; BUDGET-DAG:  llvm.mlir.global weak {{.*}}@__xenzyme_checkpoint_snapshots(0 : i64)
