; RUN: xenzyme-opt %s -p raise-nvvm | filecheck %s

; The barrier's older names (LLVM 22 reads barrier.sync(0) as barrier.cta.sync.all(0)) and the fences of __threadfence_block / __threadfence /
; __threadfence_system are raised; a barrier with another number than 0 and warp intrinsics
; are not (they pass through, for the NVPTX backend), and neither is a function that is no
; kernel.

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: llvm.func @k(%{{.*}}: !llvm.ptr) attributes {gpu.kernel}
define void @k(ptr %p) {
  ; CHECK:      %[[Z:.*]] = gpu.grid_dim z : i32
  ; CHECK-NEXT: gpu.barrier
  ; CHECK-NEXT: gpu.barrier
  ; CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"(%{{.*}})
  ; CHECK-NEXT: llvm.fence syncscope("block") seq_cst
  ; CHECK-NEXT: llvm.fence syncscope("device") seq_cst
  ; CHECK-NEXT: llvm.fence seq_cst
  ; CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
  %z = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.barrier.sync(i32 0)
  call void @llvm.nvvm.barrier.sync(i32 1)
  call void @llvm.nvvm.membar.cta()
  call void @llvm.nvvm.membar.gl()
  call void @llvm.nvvm.membar.sys()
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %z, i32 1, i32 31)
  store i32 %s, ptr %p
  ret void
}

; CHECK-LABEL: llvm.func @device(
; CHECK-NOT: gpu.kernel
; CHECK: gpu.thread_id z : i32
define i32 @device() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  ret i32 %t
}

; CHECK-NOT: llvm.func @llvm.nvvm.read.ptx.sreg

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.sync(i32)
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.sys()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
