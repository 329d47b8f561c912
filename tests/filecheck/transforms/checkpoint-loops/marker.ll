; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=off}' | filecheck %s
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=periodic period=10}' | filecheck %s --check-prefix=PERIODIC
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=off}' | not grep -F '@__enzyme_checkpoint'
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=periodic period=10}' | not grep -F '@__enzyme_checkpoint'

; A loop marked with __enzyme_checkpoint(5) (where -O2 leaves the call: in the rotated loop's
; block), in a function a request names, and a marked loop of a function none names.  With
; checkpointing off the marked loop is checkpointed, binomial with 5 snapshots (scheme 0,
; parameter 5); with a scheme given, it keeps its own; the markers are gone either way.

declare double @__enzyme_autodiff(...)
declare void @__enzyme_checkpoint(i32)

define double @f(double %x0, i64 %n) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %loop, label %done

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi double [ %x0, %entry ], [ %x.next, %loop ]
  call void @__enzyme_checkpoint(i32 5)
  %x.next = fmul double %x, %x
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %done

done:
  %r = phi double [ %x0, %entry ], [ %x.next, %loop ]
  ret double %r
}

define double @h(double %x0, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi double [ %x0, %entry ], [ %x.next, %loop ]
  call void @__enzyme_checkpoint(i32 2)
  %x.next = fmul double %x, 2.0
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %done

done:
  ret double %x.next
}

define double @g(double %x0, i64 %n) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x0, i64 %n)
  ret double %d
}

; CHECK-LABEL: llvm.func @f(
; CHECK: llvm.call @__xenzyme_ckpt.f.0.loop(
; CHECK-LABEL: llvm.func @h(
; CHECK: %x.next = llvm.fmul %x,
; CHECK-NEXT: %i.next = llvm.add %i,
; CHECK-LABEL: llvm.func internal @__xenzyme_ckpt.f.0.augment(
; CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
; CHECK-DAG: %[[FIVE:.*]] = llvm.mlir.constant(5) : i64
; CHECK: llvm.call @__xenzyme_checkpoint_forward({{.*}}, %[[ZERO]], %[[FIVE]])

; PERIODIC-LABEL: llvm.func @f(
; PERIODIC: llvm.call @__xenzyme_ckpt.f.0.loop(
; PERIODIC-LABEL: llvm.func @h(
; PERIODIC: %x.next = llvm.fmul %x,
; PERIODIC-NEXT: %i.next = llvm.add %i,
; PERIODIC-LABEL: llvm.func internal @__xenzyme_ckpt.f.0.augment(
; PERIODIC-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
; PERIODIC-DAG: %[[FIVE:.*]] = llvm.mlir.constant(5) : i64
; PERIODIC: llvm.call @__xenzyme_checkpoint_forward({{.*}}, %[[ZERO]], %[[FIVE]])
