// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// The math rules at the structured level, one op each, seeded by the return: each adjoint
// contribution is the seed times the op's partial derivative, in arith and math; a partial
// that divides is guarded as at the llvm level (a zero seed gives zero, also where the divisor
// is zero).

// CHECK-LABEL: func.func private @diffe_f(%x: f64, %seed: f64) -> f64
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// pow(q, x): d/dq = x q^(x-1), d/dx = y log q
// CHECK:         %[[XM1:.*]] = arith.subf %x, %[[ONE]] : f64
// CHECK-NEXT:    %[[PW:.*]] = math.powf %q, %[[XM1]] : f64
// CHECK:         %{{.*}} = math.log %q : f64
// sqrt: seed / (2 y), zero where the seed is
// CHECK:         %[[TWOY:.*]] = arith.mulf %r, %[[TWO]] : f64
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %seed, %[[TWOY]] : f64
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpf une, %seed, %[[ZERO]] : f64
// CHECK-NEXT:    %{{.*}} = arith.select %[[NZ]], %[[Q]], %[[ZERO]] : f64
// tanh: 1 - y^2
// CHECK:         %{{.*}} = arith.mulf %t, %t : f64
// log: seed / x
// CHECK:         %{{.*}} = arith.divf %[[D:.*]], %s2 : f64
// CHECK-NEXT:    %{{.*}} = arith.cmpf une, %[[D]], %[[ZERO]] : f64
// sin: cos x
// CHECK:         %{{.*}} = math.cos %x : f64
// CHECK:         func.return
func.func @f(%x: f64) -> f64 {
  %s = math.sin %x : f64
  %one = arith.constant 2.0 : f64
  %s2 = arith.addf %s, %one : f64
  %l = math.log %s2 : f64
  %t = math.tanh %l : f64
  %q0 = arith.mulf %t, %t : f64
  %q = arith.addf %q0, %one : f64
  %r = math.sqrt %q : f64
  %p = math.powf %q, %x : f64
  %o = arith.addf %r, %p : f64
  func.return %o : f64
}

func.func @df(%x: f64) -> f64 {
  %d = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
  func.return %d : f64
}
