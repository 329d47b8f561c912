; REQUIRES: cuda
; RUN: xenzyme-opt %s -t ptx | filecheck %s

; NVPTX IR that calls LLVM's math intrinsics, which the NVPTX backend cannot select (an abort
; inside LLVM): -t ptx calls libdevice's functions instead, linked from the toolkit.

; CHECK: .visible .entry k(
; CHECK-NOT: .extern

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %p) {
  %x = load double, ptr %p
  %y = call double @llvm.sin.f64(double %x)
  %z = call double @llvm.exp.f64(double %y)
  %w = call float @llvm.log.f32(float 2.0)
  %v = fpext float %w to double
  %s = fadd double %z, %v
  store double %s, ptr %p
  ret void
}
declare double @llvm.sin.f64(double)
declare double @llvm.exp.f64(double)
declare float @llvm.log.f32(float)
