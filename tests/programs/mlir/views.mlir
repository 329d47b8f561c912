// Views of memrefs and copies (tests/test_mlir_views.py): subview, cast, reinterpret_cast,
// expand_shape, collapse_shape, copy; differentiated at both levels.

// Row %k of a matrix through a subview (dynamic offset), made once.
func.func @row_sum(%A: memref<4x3xf64>, %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %row = memref.subview %A[%k, 0] [1, 3] [1, 1] : memref<4x3xf64> to memref<3xf64, strided<[1], offset: ?>>
  %r = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %row[%j] : memref<3xf64, strided<[1], offset: ?>>
    %s = math.sin %v : f64
    %p = arith.mulf %s, %v : f64
    %a = arith.addf %acc, %p : f64
    scf.yield %a : f64
  }
  func.return %r : f64
}

// Each row in turn through a subview made in the loop, overwritten in place through it
// while the matrix itself is read before each store (the row and the matrix alias).
func.func @scale_rows(%A: memref<4x3xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
    %row = memref.subview %A[%i, 0] [1, 3] [1, 1] : memref<4x3xf64> to memref<3xf64, strided<[1], offset: ?>>
    %ri = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc2 = %acc) -> (f64) {
      %v = memref.load %A[%i, %j] : memref<4x3xf64>
      %vw = arith.mulf %v, %w : f64
      %s = math.sin %vw : f64
      memref.store %s, %row[%j] : memref<3xf64, strided<[1], offset: ?>>
      %n = memref.load %A[%i, %j] : memref<4x3xf64>
      %p = arith.mulf %v, %n : f64
      %a = arith.addf %acc2, %p : f64
      scf.yield %a : f64
    }
    scf.yield %ri : f64
  }
  func.return %r : f64
}

// A column (a static strided view) scaled in place.
func.func @column(%A: memref<4x3xf64>, %w: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %col = memref.subview %A[0, 1] [4, 1] [1, 1] : memref<4x3xf64> to memref<4xf64, strided<[3], offset: 1>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %col[%i] : memref<4xf64, strided<[3], offset: 1>>
    %e = math.exp %v : f64
    %x = arith.mulf %e, %w : f64
    memref.store %x, %col[%i] : memref<4xf64, strided<[3], offset: 1>>
  }
  func.return
}

// A copy into a temporary, then the source overwritten in place from it.
func.func @copy_overwrite(%x: memref<5xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc() : memref<5xf64>
  "memref.copy"(%x, %t) : (memref<5xf64>, memref<5xf64>) -> ()
  scf.for %i = %c1 to %c5 step %c1 {
    %im = arith.subi %i, %c1 : index
    %a = memref.load %t[%im] : memref<5xf64>
    %b = memref.load %t[%i] : memref<5xf64>
    %xi = memref.load %x[%i] : memref<5xf64>
    %aw = arith.mulf %a, %w : f64
    %s = math.sin %aw : f64
    %p = arith.mulf %xi, %b : f64
    %n = arith.addf %s, %p : f64
    memref.store %n, %x[%i] : memref<5xf64>
  }
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<5xf64>
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  memref.dealloc %t : memref<5xf64>
  func.return %r : f64
}

// A strided row copied into a dynamically shaped buffer.
func.func @copy_row(%A: memref<4x3xf64>, %out: memref<3xf64>, %k: index) {
  %row = memref.subview %A[%k, 0] [1, 3] [1, 1] : memref<4x3xf64> to memref<3xf64, strided<[1], offset: ?>>
  "memref.copy"(%row, %out) : (memref<3xf64, strided<[1], offset: ?>>, memref<3xf64>) -> ()
  func.return
}

// A cast to a dynamic shape, passed to a function taking any length.
func.func @dyn_sum(%a: memref<?xf64>, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %a, %c0 : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %vy = arith.mulf %v, %y : f64
    %e = math.exp %vy : f64
    %s = arith.addf %acc, %e : f64
    scf.yield %s : f64
  }
  func.return %r : f64
}

func.func @cast_call(%x: memref<4xf64>, %y: f64) -> f64 {
  %c = "memref.cast"(%x) : (memref<4xf64>) -> memref<?xf64>
  %r = func.call @dyn_sum(%c, %y) : (memref<?xf64>, f64) -> f64
  %c0 = arith.constant 0 : index
  %x0 = memref.load %x[%c0] : memref<4xf64>
  %p = arith.mulf %r, %x0 : f64
  func.return %p : f64
}

// The same 2x3 matrix read flat (collapse_shape), as 3x2 (expand_shape of the flat view) and
// as 3x2 again (reinterpret_cast).
func.func @reshapes(%A: memref<2x3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f64
  %f = memref.collapse_shape %A [[0, 1]] : memref<2x3xf64> into memref<6xf64>
  %e = memref.expand_shape %f [[0, 1]] output_shape [3, 2] : memref<6xf64> into memref<3x2xf64>
  %t = memref.reinterpret_cast %A to offset: [0], sizes: [3, 2], strides: [2, 1] : memref<2x3xf64> to memref<3x2xf64>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f64) {
    %q = arith.divui %i, %c2 : index
    %m = arith.remui %i, %c2 : index
    %a = memref.load %f[%i] : memref<6xf64>
    %b = memref.load %e[%q, %m] : memref<3x2xf64>
    %qq = arith.subi %c2, %q : index
    %c = memref.load %t[%qq, %m] : memref<3x2xf64>
    %ab = arith.mulf %a, %b : f64
    %s = math.sin %c : f64
    %p = arith.mulf %ab, %s : f64
    %r2 = arith.addf %acc, %p : f64
    scf.yield %r2 : f64
  }
  func.return %r : f64
}

// A dynamic block of a dynamic matrix copied into a temporary of dynamic size, then a column of
// the block overwritten in place; a column of the matrix read (a rank-reducing strided view).
func.func @blk(%A: memref<?x?xf64>, %i: index, %n: index, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = memref.subview %A[%i, 1] [%n, 2] [1, 1] : memref<?x?xf64> to memref<?x2xf64, strided<[?, 1], offset: ?>>
  %t = memref.alloc(%n) : memref<?x2xf64>
  "memref.copy"(%s, %t) : (memref<?x2xf64, strided<[?, 1], offset: ?>>, memref<?x2xf64>) -> ()
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %a = memref.load %t[%k, %c0] : memref<?x2xf64>
    %b = memref.load %t[%k, %c1] : memref<?x2xf64>
    %p = arith.mulf %a, %b : f64
    %q = arith.mulf %p, %w : f64
    %e = math.sin %q : f64
    memref.store %e, %s[%k, %c1] : memref<?x2xf64, strided<[?, 1], offset: ?>>
    %x = arith.addf %acc, %e : f64
    scf.yield %x : f64
  }
  %col = memref.subview %A[0, 0] [%n, 1] [1, 1] : memref<?x?xf64> to memref<?xf64, strided<[?], offset: 0>>
  %v = memref.load %col[%c1] : memref<?xf64, strided<[?], offset: 0>>
  %y = arith.mulf %r, %v : f64
  memref.dealloc %t : memref<?x2xf64>
  func.return %y : f64
}
