; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=binomial checkpoints=8}' | filecheck %s

; An array overwritten in place by an inner loop (u[j] for 1 <= j < m - 1, every time step): the
; checkpoint holds u's range, an (address, length) pair in the state, computed before the loop.

declare double @__enzyme_autodiff(...)

define void @f(ptr %u, i64 %m, i64 %n) {
entry:
  %last = add i64 %m, -1
  %runs = icmp sgt i64 %m, 2
  br label %time

time:
  %t = phi i64 [ 0, %entry ], [ %t.next, %latch ]
  br i1 %runs, label %space, label %latch

space:
  %j = phi i64 [ 1, %time ], [ %j.next, %space ]
  %at = getelementptr double, ptr %u, i64 %j
  %v = load double, ptr %at
  %w = fmul double %v, 0.5
  store double %w, ptr %at
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp slt i64 %j.next, %last
  br i1 %more, label %space, label %latch

latch:
  %t.next = add nuw nsw i64 %t, 1
  %again = icmp slt i64 %t.next, %n
  br i1 %again, label %time, label %done

done:
  ret void
}

define void @g(ptr %u, ptr %du, i64 %m, i64 %n) {
  call double (...) @__enzyme_autodiff(ptr @f, ptr %u, ptr %du, i64 %m, i64 %n)
  ret void
}

; The state: the counter (8 bytes), the condition and the limit read by the body (16), the table.
; CHECK-LABEL: llvm.func @f(
; CHECK:         %[[S:.*]] = llvm.alloca %{{.*}} x !llvm.array<40 x i8>
; The range's end: the last j its exit test lets through (m - 2), one double past it; empty
; where the inner loop's guard (m > 2) fails.
; CHECK:         %[[HI:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
; CHECK:         llvm.and %{{.*}}, %runs : i1
; CHECK:         %[[ADDR:.*]] = llvm.ptrtoint %u : !llvm.ptr to i64
; CHECK:         %[[START:.*]] = llvm.add %[[ADDR]], %{{.*}} : i64
; CHECK:         %[[SLOT:.*]] = llvm.getelementptr %[[S]][24] : (!llvm.ptr) -> !llvm.ptr, i8
; CHECK:         llvm.store %[[START]], %[[SLOT]] : i64, !llvm.ptr
; CHECK:         %[[LSLOT:.*]] = llvm.getelementptr %[[S]][32] : (!llvm.ptr) -> !llvm.ptr, i8
; CHECK:         llvm.store %{{.*}}, %[[LSLOT]] : i64, !llvm.ptr
; CHECK:         llvm.call @__xenzyme_ckpt.f.0.loop(%{{.*}}, %[[S]], %u)

; The runtime is told of one region, its pair at byte 24 of a 40-byte state, 8 snapshots.
; CHECK:       llvm.func internal @__xenzyme_ckpt.f.0.augment(
; CHECK-DAG:     %[[SIZE:.*]] = llvm.mlir.constant(40) : i64
; CHECK-DAG:     %[[NREG:.*]] = llvm.mlir.constant(1) : i64
; CHECK-DAG:     %[[TABLE:.*]] = llvm.mlir.constant(24) : i64
; CHECK-DAG:     %[[C:.*]] = llvm.mlir.constant(8) : i64
; CHECK:         llvm.call @__xenzyme_checkpoint_forward(%{{.*}}, %{{.*}}, %[[SIZE]], %[[NREG]], %[[TABLE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[C]])
