// States that start at the constant 0 under partials that divide (tests/test_mlir_while.py):
// d sqrt(a) = da / (2 sqrt a) is 0/0 at the first iteration, where the state's tangent is 0;
// the derivative exists (the first state is a constant) and must not become NaN.

// acc = 0; acc = 0.5 sqrt(acc) + p[i]^2
func.func @sqrt_state(%p: memref<5xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f64) {
    %s = math.sqrt %acc : f64
    %h = arith.mulf %half, %s : f64
    %v = memref.load %p[%i] : memref<5xf64>
    %v2 = arith.mulf %v, %v : f64
    %next = arith.addf %h, %v2 : f64
    scf.yield %next : f64
  }
  func.return %r : f64
}

// The same in f32, with a hypot-like norm: acc = 0.5 acc + sqrt(acc^2 + acc^2) p[i] + p[i]^2
func.func @norm_state(%p: memref<5xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f32) {
    %a2 = arith.mulf %acc, %acc : f32
    %sum = arith.addf %a2, %a2 : f32
    %norm = math.sqrt %sum : f32
    %v = memref.load %p[%i] : memref<5xf32>
    %t = arith.mulf %norm, %v : f32
    %h = arith.mulf %half, %acc : f32
    %v2 = arith.mulf %v, %v : f32
    %u = arith.addf %h, %t : f32
    %next = arith.addf %u, %v2 : f32
    scf.yield %next : f32
  }
  func.return %r : f32
}

// acc = 0; acc = log1p(sqrt(acc) x) + x / (1 + sqrt(acc)): sqrt and a division of the state.
func.func @sqrt_div_state(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %s = math.sqrt %acc : f64
    %sx = arith.mulf %s, %x : f64
    %l = math.log1p %sx : f64
    %d = arith.addf %one, %s : f64
    %q = arith.divf %x, %d : f64
    %next = arith.addf %l, %q : f64
    scf.yield %next : f64
  }
  func.return %r : f64
}
