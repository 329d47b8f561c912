// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// A while loop inside a loop is not reversed at the structured level (its trip count would
// need caching per run of the outer loop): the module is lowered to llvm and differentiated
// there, which the output shows -- the llvm dialect, with the gradient of the lowered loops.

// CHECK-NOT: func.func
// CHECK:     llvm.func @f(%x: f64) -> f64
// CHECK:     llvm.func internal @diffef(
// CHECK:     llvm.func @df(
// CHECK:       llvm.call @diffef(
func.func @f(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f64) {
    %r = scf.while (%v = %acc) : (f64) -> f64 {
      %one = arith.constant 1.0 : f64
      %c = arith.cmpf ogt, %v, %one : f64
      scf.condition(%c) %v : f64
    } do {
    ^bb0(%v: f64):
      %half = arith.constant 0.5 : f64
      %w = arith.mulf %v, %half : f64
      scf.yield %w : f64
    }
    %three = arith.constant 3.0 : f64
    %t = arith.mulf %r, %three : f64
    scf.yield %t : f64
  }
  func.return %s : f64
}

func.func @df(%x: f64) -> f64 {
  %d = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
  func.return %d : f64
}
