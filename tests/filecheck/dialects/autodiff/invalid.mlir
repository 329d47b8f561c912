// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Each malformed autodiff op is rejected by its verifier with a message saying what is wrong.

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %g = autodiff.autodiff @f(%x) activity [wobbly] ret active : (f64) -> f64
  llvm.return
}
// CHECK: unknown activity 'wobbly' (expected one of active, dup, dupnoneed, const)

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %g = autodiff.autodiff @f(%x) activity [active] ret sideways : (f64) -> f64
  llvm.return
}
// CHECK: unknown return activity 'sideways'

// -----

llvm.func @f(%p: !llvm.ptr) {
  llvm.return
}
llvm.func @main(%p: !llvm.ptr) {
  autodiff.autodiff @f(%p) activity [dup] ret none : (!llvm.ptr) -> ()
  llvm.return
}
// CHECK: expected 2 operands for activities ['dup'] (each dup argument is followed by its shadow), got 1

// -----

llvm.func @f(%n: i32) -> f64 {
  %c = llvm.mlir.constant(1.0 : f64) : f64
  llvm.return %c : f64
}
llvm.func @main(%n: i32) {
  %g = autodiff.autodiff @f(%n) activity [active] ret active : (i32) -> i32
  llvm.return
}
// CHECK: an active argument must be floating point, got i32

// -----

llvm.func @f(%p: !llvm.ptr) {
  llvm.return
}
llvm.func @main(%p: !llvm.ptr, %q: i64) {
  autodiff.autodiff @f(%p, %q) activity [dup] ret none : (!llvm.ptr, i64) -> ()
  llvm.return
}
// CHECK: shadow type i64 does not match its primal type !llvm.ptr

// -----

llvm.func @f(%x: f64, %y: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %g = autodiff.autodiff @f(%x, %x) activity [active, active] ret active : (f64, f64) -> f64
  llvm.return
}
// CHECK: result type must be !llvm.struct<(f64, f64)> for 2 active argument(s), got f64

// -----

llvm.func @f(%x: f64, %y: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %g = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
  llvm.return
}
// CHECK: @f takes 2 arguments, 1 activities given

// -----

llvm.func @f(%x: f64) {
  llvm.return
}
llvm.func @main(%x: f64) {
  %g = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
  llvm.return
}
// CHECK: an active return must be floating point, got !llvm.void

// -----

llvm.func @main(%x: f64) {
  %c = autodiff.cache.init : !autodiff.cache<f64>
  %i = llvm.mlir.constant(1 : i32) : i32
  autodiff.cache.push %c, %i : !autodiff.cache<f64>
  llvm.return
}
// CHECK: operand is used with type f64, but has been previously used or defined with type i32

// -----

llvm.func @main(%p: !llvm.ptr, %i: i32) {
  autodiff.accumulate %p, %i : !llvm.ptr, i32
  llvm.return
}
// CHECK: can only accumulate floating-point values, got i32

// -----

llvm.func @main(%p: !llvm.ptr, %x: f64) {
  "autodiff.accumulate"(%p, %x) <{mode = "sideways"}> : (!llvm.ptr, f64) -> ()
  llvm.return
}
// CHECK: unknown accumulate mode 'sideways'
