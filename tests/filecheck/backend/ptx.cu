// REQUIRES: clang, cuda
// RUN: xenzyme-opt %s -p enzyme -t 'ptx{arch=sm_90}' | filecheck %s
// RUN: xenzyme-opt %s -p enzyme -t ptx -o %t.ptx && filecheck %s --input-file %t.ptx
// RUN: xenzyme-opt %s -t 'ptx{arch=sm_80}' | filecheck %s --check-prefix=SM80

// PTX of CUDA device code, after the enzyme pipeline: kernels are .entry (mangled or not), the
// gradient kernel has its derivative inlined, math comes from libdevice (linked, internal, only
// what is used), atomicAdd on double is one atom.global.add.f64 on sm_90.

// CHECK: .version
// CHECK: .target sm_90
// CHECK-NOT: .extern
// CHECK-DAG: .visible .entry primal(
// CHECK-DAG: .visible .entry _Z4gradPKdPdS0_S1_i(
// CHECK-DAG: atom.global.add.f64
// CHECK-NOT: __nv_sin
// CHECK-NOT: __enzyme_autodiff

// SM80: .target sm_80
// SM80: .visible .entry primal(

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ void f(const double *x, double *y, int i) { y[i] = sin(x[i]) * x[i]; }

extern "C" __global__ void primal(const double *x, double *y, double *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f(x, y, i);
    atomicAdd(total, y[i]);
  }
}

__global__ void grad(const double *x, double *dx, const double *y, double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, i);
}
