// y = A x (nested loops over a 2-D memref), written into y.
func.func @matvec(%A: memref<4x3xf64>, %x: memref<3xf64>, %y: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c4 step %c1 {
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f64) {
      %a = memref.load %A[%i, %j] : memref<4x3xf64>
      %b = memref.load %x[%j] : memref<3xf64>
      %p = arith.mulf %a, %b : f64
      %acc2 = arith.addf %acc, %p : f64
      scf.yield %acc2 : f64
    }
    memref.store %s, %y[%i] : memref<4xf64>
  }
  func.return
}

// sum_i tanh((A x)_i) with dynamic sizes, returned.
func.func @loss(%A: memref<?x?xf64>, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf64>
  %n = memref.dim %A, %c1 : memref<?x?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %m step %c1 iter_args(%tot = %zero) -> (f64) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
      %a = memref.load %A[%i, %j] : memref<?x?xf64>
      %b = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %a, %b : f64
      %acc2 = arith.addf %acc, %p : f64
      scf.yield %acc2 : f64
    }
    %t = math.tanh %s : f64
    %tot2 = arith.addf %tot, %t : f64
    scf.yield %tot2 : f64
  }
  func.return %r : f64
}

// scf.if with results: a smooth-then-linear activation per element, in place.
func.func @activate(%a: memref<5xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %a[%i] : memref<5xf64>
    %pos = arith.cmpf ogt, %v, %zero : f64
    %y = scf.if %pos -> (f64) {
      %l = arith.mulf %v, %w : f64
      scf.yield %l : f64
    } else {
      %e = math.exp %v : f64
      %m = arith.mulf %e, %w : f64
      %s = math.sin %m : f64
      scf.yield %s : f64
    }
    memref.store %y, %a[%i] : memref<5xf64>
    %acc2 = arith.addf %acc, %y : f64
    scf.yield %acc2 : f64
  }
  func.return %r : f64
}

// A temporary allocated, filled, read back and freed; and a call of another function.
func.func private @square(%v: f64) -> f64 {
  %s = arith.mulf %v, %v : f64
  func.return %s : f64
}

func.func @prefix(%x: memref<6xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc() : memref<6xf64>
  %last = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<6xf64>
    %acc2 = arith.addf %acc, %v : f64
    memref.store %acc2, %t[%i] : memref<6xf64>
    scf.yield %acc2 : f64
  }
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %t[%i] : memref<6xf64>
    %s = func.call @square(%v) : (f64) -> f64
    %acc2 = arith.addf %acc, %s : f64
    scf.yield %acc2 : f64
  }
  memref.dealloc %t : memref<6xf64>
  %out = arith.mulf %r, %last : f64
  func.return %out : f64
}

// A derivative requested in the program itself, as Enzyme-MLIR's enzyme.autodiff does.
func.func @grad_loss(%A: memref<?x?xf64>, %dA: memref<?x?xf64>, %x: memref<?xf64>, %dx: memref<?xf64>) {
  autodiff.autodiff @loss(%A, %dA, %x, %dx) activity [dup, dup] ret active : (memref<?x?xf64>, memref<?x?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  func.return
}

// A memref passed on to another function, and recursion through func.call.
func.func private @dot(%a: memref<?xf64>, %b: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = memref.load %a[%i] : memref<?xf64>
    %y = memref.load %b[%i] : memref<?xf64>
    %p = arith.mulf %x, %y : f64
    %acc2 = arith.addf %acc, %p : f64
    scf.yield %acc2 : f64
  }
  func.return %r : f64
}

func.func @power(%x: f64, %n: i64) -> f64 {
  %zero = arith.constant 0 : i64
  %done = arith.cmpi sle, %n, %zero : i64
  %r = scf.if %done -> (f64) {
    %one = arith.constant 1.0 : f64
    scf.yield %one : f64
  } else {
    %one = arith.constant 1 : i64
    %m = arith.subi %n, %one : i64
    %p = func.call @power(%x, %m) : (f64, i64) -> f64
    %q = arith.mulf %p, %x : f64
    scf.yield %q : f64
  }
  func.return %r : f64
}

func.func @energy(%a: memref<?xf64>, %k: i64) -> f64 {
  %d = func.call @dot(%a, %a) : (memref<?xf64>, memref<?xf64>) -> f64
  %e = func.call @power(%d, %k) : (f64, i64) -> f64
  func.return %e : f64
}
