// scf.parallel loops (tests/test_mlir_parallel.py), in xDSL's generic syntax (scf.parallel has
// no custom one in xDSL): run and differentiated as scf.for nests.

// y[i] = sin(x[i] * w) + x[0]: every iteration reads x[0] and w.
func.func @scale(%x: memref<6xf64>, %y: memref<6xf64>, %w: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  "scf.parallel"(%c0, %c6, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<6xf64>
    %x0 = memref.load %x[%c0] : memref<6xf64>
    %vw = arith.mulf %v, %w : f64
    %s = math.sin %vw : f64
    %t = arith.addf %s, %x0 : f64
    memref.store %t, %y[%i] : memref<6xf64>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// A two-dimensional loop with two reductions (a sum and a product).
func.func @sum_prod(%A: memref<3x4xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = "scf.parallel"(%c0, %c0, %c3, %c4, %c1, %c1, %zero, %one) <{operandSegmentSizes = array<i32: 2, 2, 2, 2>}> ({
  ^bb0(%i: index, %j: index):
    %a = memref.load %A[%i, %j] : memref<3x4xf64>
    %aw = arith.mulf %a, %w : f64
    %e = math.exp %aw : f64
    %c = math.cos %a : f64
    "scf.reduce"(%e, %c) ({
    ^bb1(%l: f64, %r2: f64):
      %s = arith.addf %l, %r2 : f64
      "scf.reduce.return"(%s) : (f64) -> ()
    }, {
    ^bb2(%l2: f64, %r3: f64):
      %p = arith.mulf %l2, %r3 : f64
      "scf.reduce.return"(%p) : (f64) -> ()
    }) : (f64, f64) -> ()
  }) : (index, index, index, index, index, index, f64, f64) -> (f64, f64)
  %out = arith.addf %r#0, %r#1 : f64
  func.return %out : f64
}
