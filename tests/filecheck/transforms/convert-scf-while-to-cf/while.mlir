// RUN: xenzyme-opt %s -p convert-scf-while-to-cf | filecheck %s

// scf.while becomes a header block (the "before" region, ending in a conditional branch to
// the body or out of the loop), the body (the "after" region, branching back to the header),
// and a block for what follows, whose arguments are the loop's results.

// CHECK-LABEL: func.func @damp(
// CHECK:         cf.br ^[[HEAD:.*]](%x : f64)
// CHECK-NEXT:  ^[[HEAD]](%v: f64):
// CHECK-NEXT:    %big = arith.cmpf ogt, %v, %one : f64
// CHECK-NEXT:    cf.cond_br %big, ^[[BODY:.*]](%v : f64), ^[[DONE:.*]](%v : f64)
// CHECK-NEXT:  ^[[BODY]](%[[W:.*]]: f64):
// CHECK-NEXT:    %u = arith.mulf %[[W]], %k : f64
// CHECK-NEXT:    cf.br ^[[HEAD]](%u : f64)
// CHECK-NEXT:  ^[[DONE]](%r: f64):
// CHECK-NEXT:    %twice = arith.addf %r, %r : f64
// CHECK-NEXT:    func.return %twice : f64
func.func @damp(%x: f64, %k: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %big = arith.cmpf ogt, %v, %one : f64
    scf.condition(%big) %v : f64
  } do {
  ^bb0(%w: f64):
    %u = arith.mulf %w, %k : f64
    scf.yield %u : f64
  }
  %twice = arith.addf %r, %r : f64
  func.return %twice : f64
}
