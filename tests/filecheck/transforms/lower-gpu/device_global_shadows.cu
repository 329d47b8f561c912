// REQUIRES: clang
// RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s --check-prefix=NVVM
// RUN: xenzyme-opt %s -p 'enzyme{gpu=cpu postopt=0}' | filecheck %s --check-prefix=CPU

// The shadows of __device__ globals are zero as each launch of a kernel asking for derivatives
// starts -- never cleared by its threads, whose clearing would race with the others'
// derivatives.  On NVPTX the shadows live in global memory beside the globals, and a kernel of
// their own clears them, which the launcher runs first; on the CPU the host function clears
// them before the grid runs.  The primal kernel clears nothing.

// NVVM: @prev.shadow = internal addrspace(1) global [1000 x double] zeroinitializer, align 8
// NVVM: @tail.shadow = internal addrspace(1) global [3 x float] zeroinitializer, align 4
// NVVM-LABEL: define {{.*}}ptx_kernel void @step_grad(
// NVVM-NOT: memset
// NVVM-NOT: store i32 0, ptr {{.*}}shadow
// NVVM: ret void
// NVVM-LABEL: define ptx_kernel void @xenzyme_zero_shadows_step_grad()
// NVVM-DAG: @llvm.nvvm.read.ptx.sreg.tid.x()
// NVVM-DAG: @llvm.nvvm.read.ptx.sreg.ctaid.x()
// NVVM-DAG: @llvm.nvvm.read.ptx.sreg.ntid.x()
// NVVM-DAG: @llvm.nvvm.read.ptx.sreg.nctaid.x()
// 8000 bytes of prev's shadow are 2000 words, each thread clearing every n-th of them
// NVVM: icmp {{.*}} i64 %{{.*}}, 2000
// NVVM: getelementptr i32, ptr addrspacecast (ptr addrspace(1) @prev.shadow to ptr), i64
// NVVM-NEXT: store i32 0
// NVVM: getelementptr i32, ptr addrspacecast (ptr addrspace(1) @tail.shadow to ptr), i64
// NVVM-NEXT: store i32 0
// NVVM: ret void
// NVVM-NOT: xenzyme_zero_shadows_step_primal

// CPU-LABEL: llvm.func internal @step_grad.block(
// CPU-NOT: llvm.intr.memset
// CPU-LABEL: llvm.func @step_grad(
// CPU: %[[P:.*]] = llvm.mlir.addressof @prev.shadow : !llvm.ptr
// CPU: %[[PN:.*]] = llvm.mlir.constant(8000) : i64
// CPU: llvm.intr.memset(%[[P]], %{{.*}}, %[[PN]])
// CPU: %[[T:.*]] = llvm.mlir.addressof @tail.shadow : !llvm.ptr
// CPU: %[[TN:.*]] = llvm.mlir.constant(12) : i64
// CPU: llvm.intr.memset(%[[T]], %{{.*}}, %[[TN]])
// CPU: llvm.call @__kmpc_fork_call

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;
__device__ double prev[1000];
__device__ float tail[3];

__device__ void step(const double *x, double *y, int i) {
  y[i] = prev[i] * x[i] + tail[i % 3];
  prev[i] = x[i] * x[i];
  tail[i % 3] = (float)x[i];
}
extern "C" __global__ void step_primal(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) step(x, y, i);
}
extern "C" __global__ void step_grad(const double *x, double *dx, double *y, double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __enzyme_autodiff((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, i);
}
