// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=1 -p raise-enzyme-calls,raise-nvvm 2>&1 | filecheck %s --check-prefix=SHUFFLE
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=2 -p enzyme 2>&1 | filecheck %s --check-prefix=XCHG
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=3 -p enzyme 2>&1 | filecheck %s --check-prefix=OLD
// RUN: xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DCASE=4 -p raise-enzyme-calls,raise-nvvm 2>&1 | filecheck %s --check-prefix=PASS

// GPU constructs that derivatives cannot go through, inside a function a derivative request
// reaches (directly or through a call): a warp shuffle (any mode), an atomic exchange of active
// memory and the old value of an atomic addition (reverse mode) -- an error naming the function
// and the line.  Outside differentiated code a shuffle passes through; barriers and shared
// memory are differentiated in both modes.

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ __noinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

#if CASE == 1
// SHUFFLE: xenzyme-opt: error: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: cannot differentiate @_Z8warp_sumf (called from @_Z1fPfS_, which is differentiated): the GPU intrinsic @llvm.nvvm.shfl.sync.down.f32 has no derivative
// SHUFFLE-NEXT: note: warp-level intrinsics
__device__ void f(float *x, float *y) { y[threadIdx.x] = warp_sum(x[threadIdx.x]); }
__global__ void g(float *x, float *dx, float *y, float *dy) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
#elif CASE == 2
// XCHG: xenzyme-opt: error: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: cannot differentiate @_Z1fPfS_: atomic 'xchg' updates of memory with derivatives are not supported in reverse mode
// XCHG-NEXT: note: in: {{.*}}llvm.atomicrmw xchg
__device__ void f(float *x, float *y) { atomicExch(y, x[threadIdx.x]); }
__global__ void g(float *x, float *dx, float *y, float *dy) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
#elif CASE == 3
// OLD: xenzyme-opt: error: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: cannot differentiate @_Z1fPdS_: the result of 'llvm.atomicrmw' (the value the memory held) carries a derivative, which is not supported yet
// OLD-NEXT: note: in: {{.*}}llvm.atomicrmw fadd
__device__ void f(double *x, double *y) { y[threadIdx.x] = atomicAdd(x, 1.0) * 2.0; }
__global__ void g(double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
#else
// PASS: llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.f32"
// PASS: llvm.func {{.*}}@reduce{{.*}}gpu.kernel
// PASS: llvm.func {{.*}}@_Z1fPdS_(
// PASS: gpu.barrier
// PASS: autodiff.fwddiff @_Z1fPdS_
// PASS: llvm.func {{.*}}@_Z1hPdS_(
// PASS: llvm.mlir.addressof @_ZZ1hPdS_E1s
// PASS: gpu.barrier
// PASS: autodiff.autodiff @_Z1hPdS_
extern "C" __global__ void reduce(float *x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }
__device__ void f(double *x, double *y) {
  double v = x[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = v * v;
}
__global__ void g(double *x, double *dx, double *y, double *dy) {
  __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
__device__ void h(double *x, double *y) {
  __shared__ double s[32];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = s[31 - threadIdx.x] * 2.0;
}
__global__ void gh(double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)h, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
#endif
