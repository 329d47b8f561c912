// REQUIRES: clang
// RUN: xenzyme-opt %s -p raise-nvvm | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-nvvm | filecheck %s --check-prefix=O0

// clang-19's CUDA device code at -O2 and -O0: the special registers become gpu ids and sizes,
// __syncthreads() (LLVM 22 reads clang's barrier0 as barrier.cta.sync.aligned.all) a
// gpu.barrier, the kernel annotation (LLVM 22's ptx_kernel) the gpu.kernel attribute.  Shared
// memory, atomics and libdevice calls stay as they are.  -O0 IR's builtin-variable globals go.

// CHECK-NOT: threadIdx
// CHECK: llvm.mlir.global internal {{.*}}@_ZZ4sum2E3buf(){{.*}}addr_space = 3 : i32
// CHECK-LABEL: llvm.func local_unnamed_addr @_Z6helperd(
// CHECK-NOT: gpu.kernel
// CHECK-SAME: {
// CHECK-LABEL: llvm.func {{.*}}@sum2({{.*}}) attributes {dso_local, gpu.kernel,
// CHECK-DAG: gpu.thread_id x : i32
// CHECK-DAG: gpu.thread_id y : i32
// CHECK-DAG: gpu.block_id x : i32
// CHECK-DAG: gpu.block_dim x : i32
// CHECK: gpu.barrier
// CHECK: gpu.grid_dim y : i32
// CHECK: llvm.atomicrmw fadd
// CHECK-NOT: llvm.nvvm
// CHECK-NOT: ptx_kernel
// CHECK: llvm.func local_unnamed_addr @__nv_sin(f64) -> f64

// O0-NOT: @threadIdx
// O0-LABEL: llvm.func @sum2({{.*}}) attributes {dso_local, gpu.kernel,
// O0: gpu.thread_id x : i32
// O0: gpu.barrier
// O0-NOT: llvm.nvvm

__device__ __noinline__ double helper(double v) { return sin(v); }

extern "C" __global__ void sum2(const double *x, double *out) {
  __shared__ double buf[64];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  buf[t] = helper(x[blockIdx.x * 64 + t]);
  __syncthreads();
  if (t == 0) {
    double s = 0;
    for (int k = 0; k < 64; k++) s += buf[k];
    atomicAdd(out, s * gridDim.y);
  }
}
