// REQUIRES: clang
// RUN: xenzyme-opt %s -p 'raise-nvvm,lower-gpu{target=cpu}' | filecheck %s

// A block reduction: one barrier before the loop, one inside it.  Three phases: from the entry
// to the first barrier, from it into the loop up to the second, and from the second (the loop's
// next trip, or out of the loop to the return).  The phases after barrier 1 and barrier 2 can
// both end at barrier 2 -- the latter once per trip of the loop, which every thread of the block
// makes the same number of times -- or return.  The loop's variable (a block argument, carried
// across the barrier) is kept per thread.

// CHECK: llvm.func internal @reduce.block(%bid_x: i32, %bid_y: i32, %bid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32, %block_x: i32, %block_y: i32, %block_z: i32, %shared_bytes: i64, %{{.*}}: !llvm.ptr {llvm.noundef, llvm.readonly}, %{{.*}}: !llvm.ptr {llvm.noundef, llvm.writeonly}) -> i32
// The slots of the loop's variable (and of its next value), one i32 per thread.
// CHECK-COUNT-2: llvm.alloca %{{.*}} x i32
// CHECK: llvm.br ^{{.*}}(%barrier1 : i32)
// CHECK: llvm.br ^{{.*}}(%barrier2 : i32)
// CHECK: llvm.br ^{{.*}}(%returned : i32)
// CHECK: llvm.br ^{{.*}}(%barrier2_1 : i32)
// CHECK: llvm.br ^{{.*}}(%returned_1 : i32)
// CHECK: llvm.switch %phase : i32, ^{{.*}} [1: ^{{.*}}, 2: ^{{.*}}]
// CHECK: llvm.func @reduce(%grid_x{{.*}}: i32, %grid_y{{.*}}: i32, %grid_z{{.*}}: i32, %block_x{{.*}}: i32, %block_y{{.*}}: i32, %block_z{{.*}}: i32, %shared_bytes{{.*}}: i64, %{{.*}}: !llvm.ptr {llvm.noundef, llvm.readonly}, %{{.*}}: !llvm.ptr {llvm.noundef, llvm.writeonly}) -> i32

extern "C" __global__ void reduce(const double *x, double *out) {
  __shared__ double buf[256];
  int t = threadIdx.x;
  buf[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}
