// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// Float arithmetic and math at the structured level: the forward sweep is the function's body,
// then each op's adjoint contributions, last op first, in arith and math.  The select sends the
// adjoint to the operand it chose; only x is active, so y gets nothing.

// CHECK-LABEL: func.func @df
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    %d = func.call @diffe_f(%x, %y, %[[ONE]]) : (f64, f64, f64) -> f64
// CHECK-LABEL: func.func private @diffe_f(%x: f64, %y: f64, %seed: f64) -> f64
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK:         %e = math.exp %n : f64
// CHECK-NEXT:    %[[DE:.*]] = arith.mulf %seed, %e : f64
// CHECK-NEXT:    %[[DS:.*]] = arith.negf %[[DE]] : f64
// CHECK-NEXT:    %[[DQ:.*]] = arith.select %c, %[[DS]], %[[Z]] : f64
// CHECK-NEXT:    %[[DX1:.*]] = arith.select %c, %[[Z]], %[[DS]] : f64
// CHECK-NEXT:    %[[DP0:.*]] = arith.divf %[[DQ]], %y : f64
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpf une, %[[DQ]], %[[Z]] : f64
// CHECK-NEXT:    %[[DP:.*]] = arith.select %[[NZ]], %[[DP0]], %[[Z]] : f64
// CHECK-NEXT:    %[[DX2:.*]] = arith.mulf %[[DP]], %y : f64
// CHECK-NEXT:    %[[DX:.*]] = arith.addf %[[DX1]], %[[DX2]] : f64
// CHECK-NEXT:    func.return %[[DX]] : f64
func.func @f(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %q = arith.divf %p, %y : f64
  %c = arith.cmpf ogt, %x, %y : f64
  %s = arith.select %c, %q, %x : f64
  %n = arith.negf %s : f64
  %e = math.exp %n : f64
  func.return %e : f64
}

func.func @df(%x: f64, %y: f64) -> f64 {
  %d = autodiff.autodiff @f(%x, %y) activity [active, const] ret active : (f64, f64) -> f64
  func.return %d : f64
}
