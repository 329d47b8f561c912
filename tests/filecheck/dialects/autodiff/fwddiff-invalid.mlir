// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Each malformed autodiff.fwddiff is rejected by its verifier (or parser) with a message saying
// what is wrong.

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x) activity [active] ret dupnoneed : (f64) -> f64
  llvm.return
}
// CHECK: unknown forward-mode activity 'active' (expected one of dup, dupnoneed, const)

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x) activity [dup] ret active : (f64, f64) -> f64
  llvm.return
}
// CHECK: unknown forward-mode return activity 'active' (expected one of dup, dupnoneed, const, none)

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x) activity [dup] ret dupnoneed width 0 : (f64, f64) -> f64
  llvm.return
}
// CHECK: width must be at least 1, got 0

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x) activity [dup] ret dupnoneed width 2 : (f64, f64) -> !llvm.struct<(f64, f64)>
  llvm.return
}
// CHECK: expected 3 operands for activities ['dup'] and width 2 (each dup argument is followed by 2 tangents), got 2

// -----

llvm.func @f(%n: i32) -> f64 {
  %c = llvm.mlir.constant(1.0 : f64) : f64
  llvm.return %c : f64
}
llvm.func @main(%n: i32) {
  %t = autodiff.fwddiff @f(%n, %n) activity [dup] ret dupnoneed : (i32, i32) -> f64
  llvm.return
}
// CHECK: a dup argument must be floating point or a pointer, got i32

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64, %y: f32) {
  %t = autodiff.fwddiff @f(%x, %y) activity [dup] ret dupnoneed : (f64, f32) -> f64
  llvm.return
}
// CHECK: tangent type f32 does not match its primal type f64

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x, %x) activity [dup] ret dupnoneed width 2 : (f64, f64, f64) -> f64
  llvm.return
}
// CHECK: result type must be !llvm.struct<(f64, f64)>, got f64

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x) activity [const] ret const : (f64) -> f64
  llvm.return
}
// CHECK: return activity 'const' has no result, got f64

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  autodiff.fwddiff @f(%x, %x) activity [dup] ret dupnoneed : (f64, f64) -> ()
  llvm.return
}
// CHECK: return activity 'dupnoneed' needs a result

// -----

llvm.func @f(%x: f64, %y: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x) activity [dup] ret dupnoneed : (f64, f64) -> f64
  llvm.return
}
// CHECK: @f takes 2 arguments, 1 activities given

// -----

llvm.func @f(%x: f64) -> i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.return %c : i32
}
llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x) activity [dup] ret dupnoneed : (f64, f64) -> i32
  llvm.return
}
// CHECK: return activity 'dupnoneed' needs a floating-point or pointer return, got i32

// -----

llvm.func @f(%x: f64) -> f64 {
  llvm.return %x : f64
}
llvm.func @main(%x: f64) {
  autodiff.fwddiff @f(%x, %x) activity [dup] ret none : (f64, f64) -> ()
  llvm.return
}
// CHECK: return activity 'none' needs a void function

// -----

llvm.func @main(%x: f64) {
  %t = autodiff.fwddiff @f(%x, %x) activity [dup] ret dupnoneed widht 2 : (f64, f64) -> f64
  llvm.return
}
// CHECK: Expected ':'
