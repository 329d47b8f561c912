// REQUIRES: clang
// RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-enzyme-calls | filecheck %s

// Enzyme's CUDA convention: the entry points are C++ declarations, so their names are mangled
// (_Z17__enzyme_autodiffPvz, _Z15__enzyme_fwddiffPvz, an overload for one active double), and
// the markers are __device__ globals in address space 1, whose loaded values are passed.

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, double);
extern __device__ double __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const, enzyme_dupnoneed;

__device__ void f(const double *x, double *y, int i) { y[i] = x[i] * x[i]; }
__device__ double g(double v) { return v * v * v; }

// CHECK-LABEL: llvm.func {{.*}}@_Z7reversePKdPdS1_S1_i(
// CHECK: autodiff.autodiff @_Z1fPKdPdi(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [dup, dupnoneed, const] ret none
// CHECK-NOT: __enzyme_autodiff
__global__ void reverse(const double *x, double *dx, double *y, double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy, enzyme_const, i);
}

// CHECK-LABEL: llvm.func {{.*}}@_Z6scalarPKdPd(
// CHECK: autodiff.autodiff @_Z1gd(%{{.*}}) activity [active] ret active : (f64) -> f64
__global__ void scalar(const double *x, double *dx) { dx[threadIdx.x] = __enzyme_autodiff((void *)g, x[threadIdx.x]); }

// CHECK-LABEL: llvm.func {{.*}}@_Z7forwardPKdS0_Pd(
// CHECK: autodiff.fwddiff @_Z1gd(%{{.*}}, %{{.*}}) activity [dup] ret dupnoneed : (f64, f64) -> f64
__global__ void forward(const double *x, const double *dx, double *out) {
  out[threadIdx.x] = __enzyme_fwddiff((void *)g, x[threadIdx.x], dx[threadIdx.x]);
}
