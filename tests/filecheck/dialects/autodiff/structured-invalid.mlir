// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// A func.func callee is checked as an llvm.func is: its arity, types and results.

func.func @two(%x: f64) -> (f64, f64) {
  func.return %x, %x : f64, f64
}
func.func @main(%x: f64) {
  %g = autodiff.autodiff @two(%x) activity [active] ret active : (f64) -> f64
  func.return
}
// CHECK: '@two' returns 2 values; a differentiated function returns at most one

// -----

func.func @f(%a: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<4xf64>
  func.return %v : f64
}
func.func @main(%a: memref<3xf64>, %da: memref<3xf64>) {
  autodiff.autodiff @f(%a, %da) activity [dup] ret active : (memref<3xf64>, memref<3xf64>) -> ()
  func.return
}
// CHECK: argument 0 has type memref<3xf64>, the callee expects memref<4xf64>

// -----

func.func @v(%x: f64) {
  func.return
}
func.func @main(%x: f64) {
  %g = autodiff.autodiff @v(%x) activity [active] ret active : (f64) -> f64
  func.return
}
// CHECK: an active return must be floating point, got !llvm.void
