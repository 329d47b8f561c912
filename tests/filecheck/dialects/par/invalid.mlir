// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Each malformed par op is rejected by its verifier (or parser) with a message saying what is
// wrong.

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr, %x: !llvm.ptr) {
  llvm.return
}
llvm.func @caller(%x: !llvm.ptr) {
  par.parallel @region(%x, %x) : (!llvm.ptr, !llvm.ptr)
  llvm.return
}
// CHECK: @region takes 1 captured values, 2 given

// -----

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr, %x: !llvm.ptr) {
  llvm.return
}
llvm.func @caller(%x: f64) {
  par.parallel @region(%x) : (f64)
  llvm.return
}
// CHECK: captured value 0 has type f64, the region expects !llvm.ptr

// -----

llvm.func internal @region(%x: !llvm.ptr) {
  llvm.return
}
llvm.func @caller(%x: !llvm.ptr) {
  par.parallel @region(%x) : (!llvm.ptr)
  llvm.return
}
// CHECK: @region is not an outlined parallel region: it must take (ptr global_tid, ptr bound_tid, captured...)

// -----

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr) {
  llvm.return
}
llvm.func @caller(%n: i64) {
  par.parallel @region() num_threads(%n : i64) : ()
  llvm.return
}
// CHECK: num_threads must be an i32, got i64

// -----

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr) {
  llvm.return
}
llvm.func @caller(%n: i32) {
  par.parallel @region() num_threads(%n : i32) serial : ()
  llvm.return
}
// CHECK: a serial region runs on one thread: it takes no num_threads

// -----

llvm.mlir.global internal @region() {addr_space = 0 : i32} : i32
llvm.func @caller() {
  par.parallel @region() : ()
  llvm.return
}
// CHECK: '@region' is not an llvm.func

// -----

// A region outlined from an scf.parallel is a func.func until lower-structured: checked the same.
func.func private @region(%gtid: !llvm.ptr, %btid: !llvm.ptr, %x: memref<4xf64>) {
  func.return
}
func.func @caller(%x: memref<4xf64>, %w: f64) {
  par.parallel @region(%w) : (f64)
  func.return
}
// CHECK: captured value 0 has type f64, the region expects memref<4xf64>

// -----

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr) {
  llvm.return
}
llvm.func @caller() {
  par.parallel @region() proc_bind(nearby) : ()
  llvm.return
}
// CHECK: expected a proc_bind kind (one of false, true, master, close, spread)

// -----

llvm.func @f(%a: i32, %b: i64) {
  %lb, %ub, %st, %last = "par.static_init"(%a, %a, %a, %b) <{schedule = "static"}> : (i32, i32, i32, i64) -> (i32, i32, i32, i1)
  llvm.return
}
// CHECK: loop bounds, step and chunk must have one type, got i32 and i64

// -----

llvm.func @f(%a: i16) {
  %lb, %ub, %st, %last = par.static_init static %a to %a step %a chunk %a : i16
  llvm.return
}
// CHECK: loop bounds must be i32 or i64, got i16

// -----

llvm.func @f(%a: i32) {
  %lb, %ub, %st, %last = "par.static_init"(%a, %a, %a, %a) <{schedule = "dynamic"}> : (i32, i32, i32, i32) -> (i32, i32, i32, i1)
  llvm.return
}
// CHECK: unknown schedule 'dynamic' (expected one of static, static_chunked)

// -----

llvm.func @f(%a: i32) {
  %lb, %ub, %st, %last = "par.static_init"(%a, %a, %a, %a) <{schedule = "static"}> : (i32, i32, i32, i32) -> (i64, i32, i32, i1)
  llvm.return
}
// CHECK: results lb, ub and stride must have the bounds' type i32

// -----

llvm.func @f(%a: i32) {
  par.dispatch_init static %a to %a step %a chunk %a : i32
  "par.dispatch_init"(%a, %a, %a, %a) <{schedule = "dynamic", modifier = "eventually"}> : (i32, i32, i32, i32) -> ()
  llvm.return
}
// CHECK: unknown schedule modifier 'eventually' (expected one of monotonic, nonmonotonic)

// -----

llvm.func @f() {
  %more, %lb, %ub, %st, %last = par.dispatch_next : i8
  llvm.return
}
// CHECK: loop bounds must be i32 or i64, got i8

// -----

llvm.func @f(%p: !llvm.ptr) {
  par.reduce xor %p, %p : f64
  llvm.return
}
// CHECK: unknown floating-point reduction kind 'xor' (expected one of add, mul, max, min)

// -----

llvm.func @f(%p: !llvm.ptr) {
  par.reduce add %p, %p count 0 : i32
  llvm.return
}
// CHECK: count must be at least 1, got 0

// -----

llvm.func @f(%p: !llvm.ptr) {
  par.reduce add %p, %p : !llvm.ptr
  llvm.return
}
// CHECK: reduction elements must be f32, f64 or i8..i64, got !llvm.ptr

// -----

llvm.func @f(%p: !llvm.ptr) {
  par.reduce sum %p, %p : f64
  llvm.return
}
// CHECK: expected a reduction kind (one of add, mul, max, min, umax, umin, and, or, xor)

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  par.atomic_update mul %p, %v monotonic : i32
  llvm.return
}
// CHECK: atomic updates are on f32 or f64, got i32

// -----

llvm.func @f(%p: !llvm.ptr, %v: f64) {
  "par.atomic_update"(%p, %v) <{kind = "pow", ordering = "monotonic"}> : (!llvm.ptr, f64) -> ()
  llvm.return
}
// CHECK: unknown atomic update kind 'pow' (expected one of add, sub, mul, div, max, min)

// -----

llvm.func @f(%p: !llvm.ptr, %v: f64) {
  "par.atomic_update"(%p, %v) <{kind = "add", ordering = "unordered"}> : (!llvm.ptr, f64) -> ()
  llvm.return
}
// CHECK: unknown atomic ordering 'unordered' (expected one of monotonic, acquire, release, acq_rel, seq_cst)

// -----

llvm.func @lock() {
  llvm.return
}
llvm.func @f() {
  par.critical_begin @lock
  llvm.return
}
// CHECK: the lock '@lock' must be an llvm.mlir.global
