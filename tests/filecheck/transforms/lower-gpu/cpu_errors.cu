// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=1 -p 'raise-nvvm,lower-gpu{target=cpu}' 2>&1 | filecheck %s --check-prefix=BRANCH
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=2 -p 'raise-nvvm,lower-gpu{target=cpu}' 2>&1 | filecheck %s --check-prefix=LOOP
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=3 -p 'raise-nvvm,lower-gpu{target=cpu}' 2>&1 | filecheck %s --check-prefix=DATA
// RUN: not xenzyme-opt %s --clang-arg=-O0 --clang-arg=-g --clang-arg=-DCASE=3 -p 'raise-nvvm,lower-gpu{target=cpu}' 2>&1 | filecheck %s --check-prefix=DATA
// RUN: xenzyme-opt %s --clang-arg=-O2 --clang-arg=-DCASE=4 -p 'raise-nvvm,lower-gpu{target=cpu}' | filecheck %s --check-prefix=UNIFORM
// RUN: xenzyme-opt %s --clang-arg=-O0 --clang-arg=-DCASE=4 -p 'raise-nvvm,lower-gpu{target=cpu}' | filecheck %s --check-prefix=UNIFORM
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-DCASE=5 -p 'raise-nvvm,lower-gpu{target=cpu}' 2>&1 | filecheck %s --check-prefix=RECURSIVE
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=6 -p 'raise-nvvm,lower-gpu{target=cpu}' 2>&1 | filecheck %s --check-prefix=SHUFFLE

// What the CPU lowering rejects: a barrier where the threads of a block may go different ways
// (a branch or a loop depending on threadIdx, on per-thread data -- also through -O0's local
// variables), a recursive function reading thread ids, warp intrinsics.  Barriers under
// conditions that are the same for the whole block are fine.

#if CASE == 1
// BRANCH: xenzyme-opt: error: {{.*}}cpu_errors.cu:22:{{[0-9]+}}: __syncthreads() in @k is in control flow that differs between the threads of a block (it depends on threadIdx or on per-thread data)
// BRANCH-NEXT: note: every thread of a block must reach the same barriers
extern "C" __global__ void k(double *x) {
  if (threadIdx.x < 16) {
    x[threadIdx.x] += 1.0;
    __syncthreads();
  }
  x[threadIdx.x] *= 2.0;
}
#elif CASE == 2
// LOOP: xenzyme-opt: error: {{.*}}cpu_errors.cu:31:{{[0-9]+}}: __syncthreads() in @k is in control flow that differs
extern "C" __global__ void k(double *x) {
  for (int i = 0; i < threadIdx.x; i++) {
    x[threadIdx.x] += x[i];
    __syncthreads();
  }
}
#elif CASE == 3
// DATA: xenzyme-opt: error: {{.*}}cpu_errors.cu:39:{{[0-9]+}}: __syncthreads() in @k is in control flow that differs
extern "C" __global__ void k(double *x) {
  double v = x[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0.5) {
    __syncthreads();
  }
  x[threadIdx.x] = v;
}
#elif CASE == 4
// UNIFORM: llvm.func internal @k.block(
// UNIFORM: llvm.switch
// UNIFORM: llvm.func @k(
extern "C" __global__ void k(double *x, int n) {
  __shared__ double s[256];
  s[threadIdx.x] = x[threadIdx.x];
  if (blockDim.x > 32 && n > 3 && x[0] > 0.0) __syncthreads();
  for (int r = 0; r < n; r++) {
    double v = s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
    s[threadIdx.x] = v;
    __syncthreads();
  }
  x[threadIdx.x] = s[threadIdx.x];
}
#elif CASE == 5
// RECURSIVE: xenzyme-opt: error: {{.*}}: @_Z4walki reads thread ids, waits at a barrier or uses shared memory, and is recursive: it cannot be inlined into the kernel for the CPU
__device__ __noinline__ int walk(int d) { return d <= 1 ? threadIdx.x : walk(d - 1) * walk(d - 2); }
extern "C" __global__ void k(int *x) { x[threadIdx.x] = walk(x[threadIdx.x]); }
#else
// SHUFFLE: xenzyme-opt: error: {{.*}}: the GPU intrinsic @llvm.nvvm.shfl.sync.down.f32 has no CPU lowering
extern "C" __global__ void k(float *x) { x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1); }
#endif
