// scf.for with iter_args: a recurrence p <- p * x + sin(p), n times.
func.func @recurrence(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%p = %one) -> (f64) {
    %a = arith.mulf %p, %x : f64
    %s = math.sin %p : f64
    %b = arith.addf %a, %s : f64
    scf.yield %b : f64
  }
  func.return %r : f64
}

// Two loop-carried values and the induction variable used as data.
func.func @two_carried(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero, %p = %one) -> (f64, f64) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %p2 = arith.mulf %p, %x : f64
    %t = arith.mulf %p2, %fi : f64
    %s2 = arith.addf %s, %t : f64
    scf.yield %s2, %p2 : f64, f64
  }
  %out = arith.addf %r#0, %r#1 : f64
  func.return %out : f64
}

// Sum of squares over a dynamically sized memref, f32, with memref.dim.
func.func @sumsq(%a: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %a[%i] : memref<?xf32>
    %sq = arith.mulf %v, %v : f32
    %acc2 = arith.addf %acc, %sq : f32
    scf.yield %acc2 : f32
  }
  func.return %r : f32
}

// An unstructured loop in cf: x is squared while the counter runs down.
func.func @cf_loop(%x: f64, %n: i64) -> f64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  cf.br ^head(%n, %x : i64, f64)
^head(%k: i64, %v: f64):
  %more = arith.cmpi sgt, %k, %zero : i64
  cf.cond_br %more, ^body, ^exit
^body:
  %v2 = arith.mulf %v, %v : f64
  %half = arith.constant 0.5 : f64
  %v3 = arith.mulf %v2, %half : f64
  %k2 = arith.subi %k, %one : i64
  cf.br ^head(%k2, %v3 : i64, f64)
^exit:
  func.return %v : f64
}
