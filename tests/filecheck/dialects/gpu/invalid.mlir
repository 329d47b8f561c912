// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Malformed gpu ops are rejected by their parser or verifier with a message saying what is wrong.

llvm.func @k() {
  %t = gpu.thread_id w : i32
  llvm.return
}
// CHECK: expected a dimension: x, y or z

// -----

llvm.func @k() {
  %t = gpu.block_dim x : f32
  llvm.return
}
// CHECK: 'gpu.block_dim' must give an index or an integer, not f32

// -----

llvm.func @k() {
  %t = "gpu.grid_dim"() : () -> i32
  llvm.return
}
// CHECK: property 'dimension' expected

// -----

"test.op"() ({
  gpu.barrier
  "test.termop"() : () -> ()
}) : () -> ()
// CHECK: 'gpu.barrier' must be inside a function (a kernel) or a gpu.launch

// -----

llvm.func @k() {
  %b = "gpu.barrier"() : () -> i32
  llvm.return
}
// CHECK: Expected 0 results, but got 1

// -----

llvm.func @k(%p: !llvm.ptr, %v: i32) {
  gpu.combined_add %p, %v : !llvm.ptr, i32
  llvm.return
}
// CHECK: 'gpu.combined_add' adds f32 or f64, not i32

// -----

llvm.func @k(%p: !llvm.ptr, %v: f16) {
  gpu.owned_add %p, %v : !llvm.ptr, f16
  llvm.return
}
// CHECK: 'gpu.owned_add' adds f32 or f64, not f16

// -----

llvm.func @k(%p: i64, %v: f64) {
  gpu.owned_add %p, %v : i64, f64
  llvm.return
}
// CHECK: i64 should be of base attribute llvm.ptr
