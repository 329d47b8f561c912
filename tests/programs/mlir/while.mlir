// scf.while loops with a data-dependent exit (tests/test_mlir_while.py), in f64 and f32.

// Newton's method for the cube root of a, from x0, until the step is below 1e-12 (or 50 steps).
func.func @newton_cbrt(%a: f64, %x0: f64) -> f64 {
  %tol = arith.constant 1.0e-12 : f64
  %three = arith.constant 3.0 : f64
  %two = arith.constant 2.0 : f64
  %big = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cmax = arith.constant 50 : index
  %r:3 = scf.while (%x = %x0, %step = %big, %k = %c0) : (f64, f64, index) -> (f64, f64, index) {
    %s = math.absf %step : f64
    %far = arith.cmpf ogt, %s, %tol : f64
    %more = arith.cmpi slt, %k, %cmax : index
    %go = arith.andi %far, %more : i1
    scf.condition(%go) %x, %step, %k : f64, f64, index
  } do {
  ^bb0(%x: f64, %step: f64, %k: index):
    // x' = x - (x^3 - a) / (3 x^2) = (2 x + a / x^2) / 3
    %x2 = arith.mulf %x, %x : f64
    %q = arith.divf %a, %x2 : f64
    %tx = arith.mulf %two, %x : f64
    %num = arith.addf %tx, %q : f64
    %next = arith.divf %num, %three : f64
    %d = arith.subf %next, %x : f64
    %k1 = arith.addi %k, %c1 : index
    scf.yield %next, %d, %k1 : f64, f64, index
  }
  func.return %r#0 : f64
}

// Bisection for the root of f(x) = x^3 + p x - q on [lo, hi] until the interval is below tol,
// then one step of linear interpolation between its ends (so the root is smooth in p and q).
func.func @bisect(%p: f32, %q: f32, %lo0: f32, %hi0: f32) -> f32 {
  %tol = arith.constant 1.0e-4 : f32
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.while (%lo = %lo0, %hi = %hi0) : (f32, f32) -> (f32, f32) {
    %w = arith.subf %hi, %lo : f32
    %wide = arith.cmpf ogt, %w, %tol : f32
    scf.condition(%wide) %lo, %hi : f32, f32
  } do {
  ^bb0(%lo: f32, %hi: f32):
    %s = arith.addf %lo, %hi : f32
    %m = arith.mulf %s, %half : f32
    %m2 = arith.mulf %m, %m : f32
    %m3 = arith.mulf %m2, %m : f32
    %pm = arith.mulf %p, %m : f32
    %f0 = arith.addf %m3, %pm : f32
    %f = arith.subf %f0, %q : f32
    %pos = arith.cmpf ogt, %f, %zero : f32
    %nlo = arith.select %pos, %lo, %m : f32
    %nhi = arith.select %pos, %m, %hi : f32
    scf.yield %nlo, %nhi : f32, f32
  }
  %flo = func.call @cubic(%r#0, %p, %q) : (f32, f32, f32) -> f32
  %fhi = func.call @cubic(%r#1, %p, %q) : (f32, f32, f32) -> f32
  %w = arith.subf %r#1, %r#0 : f32
  %df = arith.subf %fhi, %flo : f32
  %slope = arith.divf %df, %w : f32
  %step = arith.divf %flo, %slope : f32
  %root = arith.subf %r#0, %step : f32
  func.return %root : f32
}

func.func @cubic(%x: f32, %p: f32, %q: f32) -> f32 {
  %x2 = arith.mulf %x, %x : f32
  %x3 = arith.mulf %x2, %x : f32
  %px = arith.mulf %p, %x : f32
  %s = arith.addf %x3, %px : f32
  %f = arith.subf %s, %q : f32
  func.return %f : f32
}

// Sum c x[i]^2 over x until the sum passes a threshold (or x ends); returns the sum times
// the last element taken.
func.func @until_threshold(%x: memref<?xf64>, %c: f64, %limit: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r:3 = scf.while (%i = %c0, %acc = %zero, %last = %zero) : (index, f64, f64) -> (index, f64, f64) {
    %below = arith.cmpf olt, %acc, %limit : f64
    %inside = arith.cmpi slt, %i, %n : index
    %go = arith.andi %below, %inside : i1
    scf.condition(%go) %i, %acc, %last : index, f64, f64
  } do {
  ^bb0(%i: index, %acc: f64, %last: f64):
    %v = memref.load %x[%i] : memref<?xf64>
    %v2 = arith.mulf %v, %v : f64
    %t = arith.mulf %c, %v2 : f64
    %acc2 = arith.addf %acc, %t : f64
    %s = math.sin %v : f64
    %i1 = arith.addi %i, %c1 : index
    scf.yield %i1, %acc2, %s : index, f64, f64
  }
  %out = arith.mulf %r#1, %r#2 : f64
  func.return %out : f64
}

// Not reversed at the structured level (lowered to llvm first): a while loop inside a loop ...
func.func @nested(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %three = arith.constant 3.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f64) {
    %r = scf.while (%v = %acc) : (f64) -> f64 {
      %c = arith.cmpf ogt, %v, %one : f64
      scf.condition(%c) %v : f64
    } do {
    ^bb0(%v: f64):
      %w = arith.mulf %v, %half : f64
      %sw = math.sin %w : f64
      %u = arith.addf %w, %sw : f64
      scf.yield %u : f64
    }
    %t = arith.mulf %r, %three : f64
    scf.yield %t : f64
  }
  func.return %s : f64
}

// ... and one that writes memory and has values to cache (counting its trips first would run
// the stores twice).
func.func @writes(%a: memref<2xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %c = arith.cmpf ogt, %v, %one : f64
    scf.condition(%c) %v : f64
  } do {
  ^bb0(%v: f64):
    %a1 = memref.load %a[%c1] : memref<2xf64>
    %w = arith.mulf %v, %a1 : f64
    %sw = math.sin %w : f64
    %u = arith.addf %w, %sw : f64
    %a0 = memref.load %a[%c0] : memref<2xf64>
    %b = arith.addf %a0, %sw : f64
    memref.store %b, %a[%c0] : memref<2xf64>
    scf.yield %u : f64
  }
  %a0 = memref.load %a[%c0] : memref<2xf64>
  %out = arith.mulf %r, %a0 : f64
  func.return %out : f64
}
