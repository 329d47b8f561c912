// RUN: XENZYME_ROUNDTRIP
// RUN: xenzyme-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The gpu layer prints in its custom syntax and survives a round trip through the generic one:
// ids and sizes with integer results (xDSL's index form too), barriers, kernels, shared memory,
// the additions of adjoints, copies of dynamic shared memory.

// CHECK: llvm.mlir.global internal @tile(){{.*}}addr_space = 3 : i32{{.*}} : !llvm.array<64 x f64>
llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<64 x f64> {
  %u = llvm.mlir.undef : !llvm.array<64 x f64>
  llvm.return %u : !llvm.array<64 x f64>
}

// CHECK-LABEL: llvm.func @k(%{{.*}}: !llvm.ptr) attributes {gpu.kernel}
llvm.func @k(%p: !llvm.ptr) attributes {gpu.kernel} {
  // CHECK-NEXT: %{{.*}} = gpu.thread_id x : i32
  // CHECK-NEXT: %{{.*}} = gpu.thread_id y : i32
  // CHECK-NEXT: %{{.*}} = gpu.block_id z : i32
  // CHECK-NEXT: %{{.*}} = gpu.block_dim x : i32
  // CHECK-NEXT: %{{.*}} = gpu.grid_dim y : i64
  // CHECK-NEXT: %{{.*}} = gpu.thread_id x{{$}}
  %t = gpu.thread_id x : i32
  %ty = gpu.thread_id y : i32
  %b = gpu.block_id z : i32
  %n = gpu.block_dim x : i32
  %g = gpu.grid_dim y : i64
  %i = gpu.thread_id x
  %s = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %q = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr
  %t64 = llvm.zext %t : i32 to i64
  %e = llvm.getelementptr %q[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  %v = llvm.load %p : !llvm.ptr -> f64
  llvm.store %v, %e : f64, !llvm.ptr
  // CHECK: gpu.barrier
  gpu.barrier
  // CHECK-NEXT: gpu.barrier {note = "named"}
  gpu.barrier {note = "named"}
  %w = llvm.atomicrmw fadd %p, %v seq_cst : !llvm.ptr, f64
  // CHECK: gpu.owned_add %{{.*}}, %{{.*}} : !llvm.ptr, f64
  // CHECK-NEXT: llvm.fptrunc
  // CHECK-NEXT: gpu.combined_add %{{.*}}, %{{.*}} : !llvm.ptr, f32
  gpu.owned_add %p, %v : !llvm.ptr, f64
  %f = llvm.fptrunc %v : f64 to f32
  gpu.combined_add %p, %f : !llvm.ptr, f32
  llvm.return
}

// Shadows of dynamic shared memory: a copy after the launch's own.
// CHECK: llvm.mlir.global external @dyn.shadow() {addr_space = 3 : i32, alignment = 8 : i64, gpu.dynamic_copy = 1 : i32} : !llvm.array<0 x f64>
llvm.mlir.global external @dyn.shadow() {addr_space = 3 : i32, alignment = 8 : i64, gpu.dynamic_copy = 1 : i32} : !llvm.array<0 x f64>

// GENERIC: "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> i32
// GENERIC: "gpu.grid_dim"() <{dimension = #gpu<dim y>}> : () -> i64
// GENERIC: "gpu.barrier"() : () -> ()
// GENERIC: "gpu.owned_add"(%{{.*}}, %{{.*}}) : (!llvm.ptr, f64) -> ()
// GENERIC: "gpu.combined_add"(%{{.*}}, %{{.*}}) : (!llvm.ptr, f32) -> ()
