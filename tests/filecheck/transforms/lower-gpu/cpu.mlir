// RUN: xenzyme-opt %s -p 'lower-gpu{target=cpu}' | filecheck %s

// lower-gpu{target=cpu} on a kernel with one barrier: a host function running the blocks (a
// team of threads taking blocks in turn), a block function running two phases (before and
// after the barrier), each a loop nest over the block's threads.  %v, loaded before the barrier and used after it, is kept in a per-thread
// array; the index %i is recomputed in the second phase; the static shared array and the
// dynamic one live in one per-block buffer (the dynamic one after 512 static bytes); __nv_sin
// is libm's sin.

// CHECK-NOT: llvm.mlir.global {{.*}}@tile
// CHECK-NOT: llvm.mlir.global {{.*}}@dyn
// The block function: block id, grid size, block size (x/y/z each), shared bytes, kernel args.
// CHECK-LABEL: llvm.func internal @k.block(%bid_x: i32, %bid_y: i32, %bid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32, %block_x: i32, %block_y: i32, %block_z: i32, %shared_bytes: i64, %x: !llvm.ptr, %y: !llvm.ptr) -> i32
// CHECK:      llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[NT:[0-9]+]] = llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[STATIC:[0-9]+]] = llvm.mlir.constant(512) : i64
// CHECK-NEXT: %[[BYTES:[0-9]+]] = llvm.add %shared_bytes, %[[STATIC]] : i64
// CHECK-NEXT: %shared = llvm.alloca %[[BYTES]] x i8 {alignment = 16 : i64}
// CHECK-NEXT: %s = llvm.getelementptr %shared[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: %d = llvm.getelementptr %shared[512] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: %v.slot = llvm.alloca %[[NT]] x f64

// Phase 0: the thread loops (z, y, x), then the code before the barrier; %v goes to its slot.
// CHECK:      ^{{.*}}(%tz: i32):
// CHECK:      ^{{.*}}(%ty: i32):
// CHECK:      ^{{.*}}(%tx: i32):
// CHECK:      %thread = llvm.zext
// CHECK:      %v = llvm.load
// CHECK-NEXT: %[[AT:[0-9]+]] = llvm.getelementptr %v.slot[%thread] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK-NEXT: llvm.store %v, %[[AT]]
// CHECK:      llvm.getelementptr %s[%{{.*}}]
// CHECK:      llvm.call @sin(
// The barrier: the threads' exit code is 1, the phase after barrier 1.
// CHECK:      llvm.br ^{{.*}}(%barrier1 : i32)

// Phase 1: %v from its slot; the index recomputed from the block id and the thread's x.
// CHECK:      ^{{.*}}(%tx_1: i32):
// CHECK:      %thread_1 = llvm.zext
// CHECK:      llvm.getelementptr %s[0]
// CHECK:      llvm.getelementptr %d[%{{.*}}]
// CHECK:      %[[AT1:[0-9]+]] = llvm.getelementptr %v.slot[%thread_1]
// CHECK-NEXT: %[[V1:[0-9]+]] = llvm.load %[[AT1]] : !llvm.ptr -> f64
// CHECK-NEXT: %sum = llvm.fadd %w, %[[V1]] : f64
// CHECK-NEXT: %bn_2 = llvm.mul %bid_x, %block_x : i32
// CHECK-NEXT: %i32_2 = llvm.add %bn_2, %tx_1 : i32
// CHECK:      llvm.br ^{{.*}}(%returned : i32)

// After each phase: threads that ended differently -> 1; all returned -> 0; else the next phase.
// CHECK:      ^{{.*}}(%phase: i32):
// CHECK-NEXT: llvm.switch %phase : i32, ^{{.*}} [1: ^{{.*}}]

// The grid function each thread of a team runs: blocks handed out one at a time (a dynamic
// schedule), a block's status 1 OR-ed into *status.
// CHECK-LABEL: llvm.func internal @k.grid(
// CHECK:      par.dispatch_init dynamic
// CHECK:      par.dispatch_next : i64
// CHECK:      llvm.call @k.block(
// CHECK:      llvm.atomicrmw or
// CHECK:      par.dispatch_fini

// The host function: grid size, block size, shared bytes, kernel args -> status; the blocks run
// by a team of threads (one block: serially).
// CHECK-LABEL: llvm.func @k(%grid_x{{.*}}: i32, %grid_y{{.*}}: i32, %grid_z{{.*}}: i32, %block_x{{.*}}: i32, %block_y{{.*}}: i32, %block_z{{.*}}: i32, %shared_bytes{{.*}}: i64, %x{{.*}}: !llvm.ptr, %y{{.*}}: !llvm.ptr) -> i32
// CHECK:      par.parallel @k.grid(%status,
// CHECK:      par.parallel @k.grid(%status, {{.*}} serial
// CHECK:      llvm.load %status
// CHECK:      llvm.func @sin(f64) -> f64

llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<64 x f64> {
  %u = llvm.mlir.undef : !llvm.array<64 x f64>
  llvm.return %u : !llvm.array<64 x f64>
}
llvm.mlir.global external @dyn() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<0 x f64>

llvm.func @k(%x: !llvm.ptr, %y: !llvm.ptr) attributes {gpu.kernel} {
  %t = gpu.thread_id x : i32
  %b = gpu.block_id x : i32
  %n = gpu.block_dim x : i32
  %bn = llvm.mul %b, %n : i32
  %i32 = llvm.add %bn, %t : i32
  %i = llvm.zext %i32 : i32 to i64
  %px = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  %v = llvm.load %px : !llvm.ptr -> f64
  %s3 = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %s = llvm.addrspacecast %s3 : !llvm.ptr<3> to !llvm.ptr
  %t64 = llvm.zext %t : i32 to i64
  %st = llvm.getelementptr %s[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  %sv = llvm.call @__nv_sin(%v) : (f64) -> f64
  llvm.store %sv, %st : f64, !llvm.ptr
  gpu.barrier
  %r = llvm.getelementptr %s[0] : (!llvm.ptr) -> !llvm.ptr, f64
  %w = llvm.load %r : !llvm.ptr -> f64
  %d3 = llvm.mlir.addressof @dyn : !llvm.ptr<3>
  %d = llvm.addrspacecast %d3 : !llvm.ptr<3> to !llvm.ptr
  %dt = llvm.getelementptr %d[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  llvm.store %w, %dt : f64, !llvm.ptr
  %sum = llvm.fadd %w, %v : f64
  %py = llvm.getelementptr %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  llvm.store %sum, %py : f64, !llvm.ptr
  llvm.return
}
llvm.func @__nv_sin(f64) -> f64
