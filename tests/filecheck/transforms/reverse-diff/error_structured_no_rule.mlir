// RUN: not xenzyme-opt %s -p reverse-diff 2>&1 | filecheck %s

// An op with no structured rule sends the module to the llvm level; an op that has no
// lowering either is an error naming it and where it is.

// CHECK: xenzyme-opt: error: {{.*}}error_structured_no_rule.mlir:11:3: 'arith.ceildivui' has no lowering
// CHECK: note:
func.func @f(%x: f64, %n: i64) -> f64 {
  %c = arith.constant 3 : i64
  // (line 11:)
  %k = arith.ceildivui %n, %c : i64
  %f = arith.sitofp %k : i64 to f64
  %y = arith.mulf %x, %f : f64
  func.return %y : f64
}

func.func @df(%x: f64, %n: i64) -> f64 {
  %d = autodiff.autodiff @f(%x, %n) activity [active, const] ret active : (f64, i64) -> f64
  func.return %d : f64
}
