// RUN: xenzyme-opt %s -p 'print-activity{function=f args=active,const}' | filecheck %s

// Region-carried values of scf.while (initial and yielded values into the "before" region's
// arguments, the condition's values into the "after" region's arguments and the results) and
// scf.if (what each branch yields into the results).  %k counts iterations: an integer, const.
// %g is varied only through the else branch, and useful through the loop's result.

// CHECK-LABEL: func.func @f
// CHECK:         scf.if
// CHECK:           arith.mulf %x, %x {activity = ["active"]}
// CHECK:         }{{ *}}{activity = ["active"]}
// CHECK:         scf.while
// CHECK:           scf.condition
// CHECK:           arith.mulf {{.*}}activity = ["active"]
// CHECK:           arith.addi {{.*}}activity = ["const"]
// CHECK:         } attributes {activity = ["active", "const"], region_activity = ["active", "const", "active", "const"]}
// CHECK-NEXT:    arith.mulf {{.*}}activity = ["active"]
func.func @f(%x: f64, %flag: i1) -> f64 {
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lim = arith.constant 10.0 : f64
  %g = scf.if %flag -> (f64) {
    scf.yield %one : f64
  } else {
    %h = arith.mulf %x, %x : f64
    scf.yield %h : f64
  }
  %r, %n = scf.while (%v = %g, %k = %c0) : (f64, index) -> (f64, index) {
    %more = arith.cmpf olt, %v, %lim : f64
    scf.condition(%more) %v, %k : f64, index
  } do {
  ^bb0(%w: f64, %j: index):
    %w2 = arith.mulf %w, %x : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %w2, %j2 : f64, index
  }
  %out = arith.mulf %r, %r : f64
  func.return %out : f64
}
