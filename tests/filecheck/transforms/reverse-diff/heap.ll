; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Heap memory: the shadow of a malloc'd buffer is calloc'd beside it (zero adjoints), the
; primal's free stays in the forward sweep (what the reverse sweep needs from the buffer is
; cached), and the shadow is freed where the reverse sweep reaches the allocation -- after the
; reverse loop that accumulates into it.  realloc becomes malloc + copy + free in the gradient
; only: the primal keeps its realloc.
declare void @__enzyme_autodiff(...)
declare ptr @malloc(i64)
declare void @free(ptr)

define double @f(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %t = call ptr @malloc(i64 %bytes)
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %px = getelementptr double, ptr %x, i64 %i
  %xi = load double, ptr %px
  %sq = fmul double %xi, %xi
  %pt = getelementptr double, ptr %t, i64 %i
  store double %sq, ptr %pt
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %fill, label %done
done:
  %t0 = load double, ptr %t
  call void @free(ptr %t)
  ret double %t0
}

define void @g(ptr %x, ptr %dx, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}

define double @grow(ptr %x) {
  %a = call ptr @malloc(i64 8)
  %x0 = load double, ptr %x
  store double %x0, ptr %a
  %b = call ptr @realloc(ptr %a, i64 16)
  %b0 = load double, ptr %b
  %s = fmul double %b0, %b0
  call void @free(ptr %b)
  ret double %s
}
declare ptr @realloc(ptr, i64)

define void @h(ptr %x, ptr %dx) {
  call void (...) @__enzyme_autodiff(ptr @grow, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK:         %[[T:.*]] = llvm.call @malloc(%[[BYTES:.*]]) : (i64) -> !llvm.ptr
; CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
; CHECK-NEXT:    %[[DT:.*]] = llvm.call @calloc(%[[ONE]], %[[BYTES]]) : (i64, i64) -> !llvm.ptr
; CHECK:         llvm.getelementptr %[[DT]][
; CHECK:         llvm.call @free(%[[T]])
; The reverse loop reads and clears the shadow, then the shadow is freed on the way out.
; CHECK:         llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         llvm.cond_br
; CHECK:         llvm.call @free(%[[DT]]) : (!llvm.ptr) -> ()
; CHECK-NEXT:    llvm.return

; CHECK-LABEL: llvm.func @grow(
; CHECK:         llvm.call @realloc(

; CHECK-LABEL: llvm.func internal @diffegrow(
; CHECK:         %[[A:.*]] = llvm.call @malloc(
; CHECK:         %[[DA:.*]] = llvm.call @calloc(
; CHECK:         %[[B:.*]] = llvm.call @malloc(
; CHECK:         %[[DB:.*]] = llvm.call @calloc(
; CHECK:         %[[USABLE:.*]] = llvm.call @malloc_usable_size(%[[A]])
; CHECK:         llvm.intr.memcpy(%[[B]], %[[A]], %{{.*}})
; CHECK:         llvm.call @free(%[[A]])
; The adjoint of what was copied goes back from the new buffer's shadow to the old one's.
; CHECK:         llvm.call @xenzyme.memcpy.adjoint.{{.*}}(%[[DA]], %[[DB]], %{{.*}})
; CHECK:         llvm.call @free(%[[DB]])
; CHECK:         llvm.call @free(%[[DA]])
; CHECK:         llvm.return
