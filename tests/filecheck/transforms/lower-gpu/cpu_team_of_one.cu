// REQUIRES: clang
// RUN: xenzyme-opt %s -p 'raise-nvvm,lower-gpu{target=cpu}' | filecheck %s

// A block function with atomic updates of memory gets a variant for a team of one host thread,
// which runs every block of the grid one after the other: there the updates are plain loads,
// additions and stores (nothing runs beside them).  The grid function picks the variant by the
// size of its team.

// CHECK-LABEL: llvm.func internal @hist.block(
// CHECK: llvm.atomicrmw fadd
// CHECK-LABEL: llvm.func internal @hist.block.alone(
// CHECK-NOT: llvm.atomicrmw
// CHECK: %[[OLD:[0-9]+]] = llvm.load %[[P:[0-9]+]] : !llvm.ptr -> f64
// CHECK-NEXT: %[[NEW:[0-9]+]] = llvm.fadd %[[OLD]], %{{.*}} : f64
// CHECK-NEXT: llvm.store %[[NEW]], %[[P]] : f64, !llvm.ptr
// CHECK-NOT: llvm.atomicrmw
// CHECK-LABEL: llvm.func internal @hist.grid(
// CHECK: %[[TEAM:.*]] = par.num_threads : i32
// CHECK: %alone = llvm.icmp "eq" %[[TEAM]], %{{.*}} : i32
// CHECK: llvm.cond_br %alone, ^[[ALONE:.*]], ^[[SHARED:.*]]
// CHECK-DAG: llvm.call @hist.block(
// CHECK-DAG: llvm.call @hist.block.alone(

extern "C" __global__ void hist(const double *x, const int *bin, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[bin[i]], x[i] * x[i]);
}

// A kernel without atomics has one block function.
// CHECK-LABEL: llvm.func internal @scale.block(
// CHECK-NOT: @scale.block.alone
// CHECK-LABEL: llvm.func @scale(
extern "C" __global__ void scale(double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0;
}
