// REQUIRES: clang
// RUN: xenzyme-opt %s -p 'enzyme{gpu=cpu postopt=0}' | filecheck %s

// A derivative's caches of a loop with a run-time trip count live in heap buffers, which a cache
// takes from a pool slot when it starts and gives back when it returns.  On the CPU each thread
// of a block gets a slot of its own (two caches here: two slots a thread), in an array each host
// thread of the team allocates for the launch and passes to every block it runs: from the second
// block on, a thread's caches reuse the buffers of the same thread of the block before.

// CHECK-LABEL: llvm.func internal @walk_grad.block(
// CHECK-SAME: %[[POOLS:pools[_0-9]*]]: !llvm.ptr) -> i32
// CHECK: %[[T:.*]] = llvm.mul %thread, %{{.*}} : i64
// CHECK: %[[K:.*]] = llvm.add %[[T]], %{{.*}} : i64
// CHECK: llvm.getelementptr %[[POOLS]][%[[K]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK-NOT: xenzyme.pool
// CHECK-LABEL: llvm.func internal @walk_grad.grid(
// CHECK: %[[SLOTS:pools[_0-9]*]] = llvm.call @calloc(%[[N:[0-9]+]], %{{.*}}) : (i64, i64) -> !llvm.ptr
// CHECK: llvm.call @walk_grad.block({{.*}}, %[[SLOTS]]) :
// CHECK: llvm.call @__kmpc_dispatch_deinit
// CHECK: llvm.icmp "ult" %{{.*}}, %[[N]] : i64
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.call @free(%[[B]])
// CHECK: llvm.call @free(%[[SLOTS]])

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ void walk(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double acc = 0.0;
  for (int k = i; k < n; k += blockDim.x * gridDim.x) acc = sin(acc + x[k]);
  y[i] = acc;
}
extern "C" __global__ void walk_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)walk, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
