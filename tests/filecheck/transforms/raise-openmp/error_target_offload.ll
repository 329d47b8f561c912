; RUN: not xenzyme-opt %s -p 'raise-enzyme-calls,raise-openmp' 2>&1 | filecheck %s

; A target region offloaded through libomptarget (`__tgt_target_kernel`, as clang emits with
; -fopenmp-targets=...) in a differentiated function: an error naming the construct; without a
; debug location, the function and the file.

source_filename = "offload.c"

declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)
declare void @__enzyme_autodiff(ptr, ...)

define double @loss(ptr %x) {
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 1, i32 1, ptr null, ptr null)
  %v = load double, ptr %x
  ret double %v
}

define void @grad(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr %x, ptr %dx)
  ret void
}

; CHECK:      xenzyme-opt: error: offload.c: OpenMP construct 'target' in @loss is not supported for differentiation (runtime call @__tgt_target_kernel)
; CHECK-NOT:  Traceback
