// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-enzyme-calls,raise-nvvm,reverse-diff | filecheck %s

// The reverse of device code that works as a block.  A __shared__ array gets a shadow shared
// array that is zero when each block starts (`llvm.mlir.zero`); the barrier is mirrored: the
// adjoints that readers add into the shadow after it (atomically: another thread reads
// s[63 - t]) are all in before the thread that wrote s[t] takes its adjoint, behind the
// mirrored barrier.  dx[i] is the thread's own (`gpu.owned_add`).  An atomicAdd passes the
// adjoint of *sum to the value added, without zeroing it; the adjoint of w[0], which every
// thread reads, is combined per block (`gpu.combined_add`).

// CHECK:      llvm.mlir.global internal @[[S:_ZZ4tilePKdPdE1s]].shadow() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<64 x f64> {
// CHECK-NEXT:   llvm.mlir.zero : !llvm.array<64 x f64>

// CHECK-LABEL: llvm.func internal @diffe_Z4tilePKdPd(
// CHECK:      %[[SH3:[0-9]+]] = llvm.mlir.addressof @[[S]].shadow : !llvm.ptr<3>
// CHECK:      %[[SH:[0-9]+]] = llvm.addrspacecast %[[SH3]]
// CHECK:      %[[DOUT:[0-9]+]] = llvm.getelementptr inbounds %33[%{{[0-9]+}}]
// CHECK:      %[[DMINE:[0-9]+]] = llvm.getelementptr inbounds %[[SH]][0, %{{[0-9]+}}]
// CHECK:      gpu.barrier
// CHECK:      %[[DOTHER:[0-9]+]] = llvm.getelementptr inbounds %[[SH]][0, %{{[0-9]+}}]
// The reverse sweep: the adjoints of both reads of s into its shadow, the barrier, then the
// adjoint of the store s[t] = x[i] taken from the shadow (and zeroed) into dx[i].
// CHECK:      autodiff.accumulate %[[DOTHER]], %{{[0-9]+}} atomic
// CHECK:      autodiff.accumulate %[[DMINE]], %{{[0-9]+}} atomic
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[D:[0-9]+]] = llvm.load %[[DMINE]]
// CHECK:      llvm.store %{{[0-9]+}}, %[[DMINE]]
// CHECK:      gpu.owned_add %[[DOUT]], %{{[0-9]+}} : !llvm.ptr, f64
// CHECK-NEXT: llvm.return

// CHECK-LABEL: llvm.func internal @diffe_Z5totalPKfPfS0_i(
// CHECK-SAME: %{{[0-9]+}}: !llvm.ptr, %{{[0-9]+}}: !llvm.ptr, %{{[0-9]+}}: !llvm.ptr, %[[DSUM:[0-9]+]]: !llvm.ptr, %{{[0-9]+}}: !llvm.ptr, %[[DW:[0-9]+]]: !llvm.ptr, %{{[0-9]+}}: i32)
// CHECK:      llvm.atomicrmw fadd
// CHECK:      llvm.load %[[DSUM]] : !llvm.ptr -> f32
// CHECK-NOT:  llvm.store {{.*}}%[[DSUM]]
// CHECK:      gpu.owned_add %{{[0-9]+}}, %{{[0-9]+}} : !llvm.ptr, f32
// CHECK:      gpu.combined_add %[[DW]], %{{[0-9]+}} : !llvm.ptr, f32

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ void tile(const double *__restrict__ x, double *__restrict__ y) {
  __shared__ double s[64];
  s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  y[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x] * s[63 - threadIdx.x];
}
__global__ void tile_grad(double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)tile, enzyme_dup, x, dx, enzyme_dup, y, dy);
}

__device__ void total(const float *__restrict__ x, float *__restrict__ sum, const float *__restrict__ w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, w[0] * x[i] * x[i]);
}
__global__ void total_grad(float *x, float *dx, float *sum, float *dsum, float *w, float *dw, int n) {
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_dup, sum, dsum, enzyme_dup, w, dw, enzyme_const, n);
}
