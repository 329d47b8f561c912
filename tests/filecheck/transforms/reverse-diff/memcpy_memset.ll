; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Bulk memory.  memset over active memory: in reverse, the shadow of the range is zeroed.
; memcpy of doubles: in reverse, a helper moves the adjoints from the destination's shadow back
; to the source's (adding them there) and clears the destination's.  Which bytes are doubles
; comes from type analysis (here: the double loaded from %dst).

declare void @__enzyme_autodiff(...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @f(ptr %dst, ptr %src, i64 %n) {
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 %bytes, i1 false)
  call void @llvm.memset.p0.i64(ptr align 8 %src, i8 0, i64 %bytes, i1 false)
  %a = load double, ptr %dst, align 8
  %s = fmul double %a, %a
  store double %s, ptr %src, align 8
  ret void
}

define void @g(ptr %dst, ptr %ddst, ptr %src, ptr %dsrc, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %dst, ptr %ddst, ptr %src, ptr %dsrc, i64 %n)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %[[DDST:[^:]+]]: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %[[DSRC:[^:]+]]: !llvm.ptr, %{{[^:]+}}: i64)
; CHECK:         %[[BYTES:.*]] = llvm.shl
; CHECK-NEXT:    llvm.intr.memcpy
; CHECK-NEXT:    llvm.intr.memset
; The forward sweep copies no shadows: the bytes hold no pointers.
; CHECK-NOT:     llvm.intr.memcpy
; CHECK:         autodiff.accumulate %[[DDST]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i8) : i8
; CHECK-NEXT:    llvm.intr.memset(%[[DSRC]], %[[Z]], %[[BYTES]]) : !llvm.ptr, i8, i64
; CHECK-NEXT:    llvm.call @[[HELPER:xenzyme\.memcpy\.adjoint\.[0-9a-f]+]](%[[DSRC]], %[[DDST]], %[[BYTES]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
; CHECK-NEXT:    llvm.return

; The helper walks the doubles: load the destination's adjoint, clear it, add it to the source's.
; CHECK:       llvm.func internal @[[HELPER]](
; CHECK-SAME:      %[[HS:[^:]+]]: !llvm.ptr, %[[HD:[^:]+]]: !llvm.ptr, %[[HN:[^:]+]]: i64) {
; CHECK:         %{{.*}} = llvm.udiv %[[HN]], %{{.*}} : i64
; CHECK:         %[[PS:.*]] = llvm.getelementptr %[[HS]][%[[OFF:.*]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
; CHECK-NEXT:    %[[PD:.*]] = llvm.getelementptr %[[HD]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
; CHECK-NEXT:    %[[V:.*]] = llvm.load %[[PD]] : !llvm.ptr -> f64
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z0]], %[[PD]] : f64, !llvm.ptr
; CHECK-NEXT:    autodiff.accumulate %[[PS]], %[[V]] : !llvm.ptr, f64
