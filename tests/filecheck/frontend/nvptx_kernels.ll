; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s | xenzyme-opt | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=IR

; clang-19 marks CUDA kernels in !nvvm.annotations; LLVM 22 reads that as the ptx_kernel calling
; convention, which the importer keeps (it is what tells a kernel from a device function), and
; the exporter prints back.  Shared memory (address space 3), the addrspacecast constant
; expressions that reach it, NVVM intrinsics and atomics come through too.

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x double] undef, align 8

; CHECK: llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<32 x f64>
; CHECK-LABEL: llvm.func ptx_kernel @k(
; CHECK: llvm.mlir.addressof @tile : !llvm.ptr<3>
; CHECK: llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr
; CHECK: llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"()
; CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
; CHECK: llvm.atomicrmw fadd
; CHECK-LABEL: llvm.func @device(
; IR: define ptx_kernel void @k(
; IR: define double @device(
; The intrinsic is declared once (the module's declaration, not another for the call).
; IR: declare {{.*}} i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; IR-NOT: @llvm.nvvm.read.ptx.sreg.tid.x()
; IR: declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
define void @k(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr [32 x double], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %i
  store double 1.0, ptr %p
  call void @llvm.nvvm.barrier0()
  %v = load double, ptr addrspacecast (ptr addrspace(3) @tile to ptr)
  %r = call double @device(double %v)
  %old = atomicrmw fadd ptr %out, double %r seq_cst
  ret void
}

define double @device(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
