// The affine dialect (tests/test_mlir_affine.py): loops, loads and stores through maps,
// affine.apply, bounds from symbols; lowered to scf/memref/arith before differentiation.

// y = A x, accumulated in place in y.
func.func @matvec(%A: memref<4x3xf64>, %x: memref<3xf64>, %y: memref<4xf64>) {
  %z = arith.constant 0.0 : f64
  affine.for %i = 0 to 4 {
    affine.store %z, %y[%i] : memref<4xf64>
    affine.for %j = 0 to 3 {
      %a = affine.load %A[%i, %j] : memref<4x3xf64>
      %b = affine.load %x[%j] : memref<3xf64>
      %c = affine.load %y[%i] : memref<4xf64>
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %c, %p : f64
      affine.store %s, %y[%i] : memref<4xf64>
    }
  }
  func.return
}

// A stencil with shifted accesses (maps with offsets), a step of 2 and a value carried.
func.func @stencil(%x: memref<8xf64>, %w: f64) -> f64 {
  %z = arith.constant 0.0 : f64
  %r = affine.for %i = 1 to 7 step 2 iter_args(%acc = %z) -> (f64) {
    %l = affine.load %x[%i - 1] : memref<8xf64>
    %c = affine.load %x[%i] : memref<8xf64>
    %k = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %r2 = affine.load %x[%k] : memref<8xf64>
    %lr = arith.mulf %l, %r2 : f64
    %cw = arith.mulf %c, %w : f64
    %s = math.sin %cw : f64
    %t = arith.addf %lr, %s : f64
    %a = arith.addf %acc, %t : f64
    affine.yield %a : f64
  }
  func.return %r : f64
}

// A bound from a symbol, an index map with mod, and an in-place update.
func.func @rotate(%x: memref<?xf64>, %n: index, %w: f64) -> f64 {
  %z = arith.constant 0.0 : f64
  %r = affine.for %i = 0 to %n iter_args(%acc = %z) -> (f64) {
    %a = affine.load %x[%i] : memref<?xf64>
    %k = affine.apply affine_map<(d0) -> ((d0 + 2) mod 5)>(%i)
    %b = affine.load %x[%k] : memref<?xf64>
    %p = arith.mulf %a, %b : f64
    %e = math.exp %p : f64
    %ew = arith.mulf %e, %w : f64
    affine.store %ew, %x[%i] : memref<?xf64>
    %s = arith.addf %acc, %ew : f64
    affine.yield %s : f64
  }
  func.return %r : f64
}
