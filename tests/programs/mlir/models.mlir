// scf.while with a data-dependent exit: damp v (k < 1) until it is at most 1.
func.func @damp(%x: f64, %k: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %big = arith.cmpf ogt, %v, %one : f64
    scf.condition(%big) %v : f64
  } do {
  ^bb0(%v: f64):
    %w = arith.mulf %v, %k : f64
    %s = math.sin %w : f64
    %tenth = arith.constant 0.1 : f64
    %t = arith.mulf %s, %tenth : f64
    %u = arith.addf %w, %t : f64
    scf.yield %u : f64
  }
  func.return %r : f64
}

// logsumexp, stabilised by the maximum (two passes over the memref).
func.func @logsumexp(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %first = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%cur = %first) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %bigger = arith.maximumf %cur, %v : f64
    scf.yield %bigger : f64
  }
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %acc2 = arith.addf %acc, %e : f64
    scf.yield %acc2 : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  func.return %r : f64
}

// softmax written into %y (f32).
func.func @softmax(%x: memref<6xf32>, %y: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<6xf32>
    %e = math.exp %v : f32
    memref.store %e, %y[%i] : memref<6xf32>
    %acc2 = arith.addf %acc, %e : f32
    scf.yield %acc2 : f32
  }
  scf.for %i = %c0 to %c6 step %c1 {
    %e = memref.load %y[%i] : memref<6xf32>
    %p = arith.divf %e, %s : f32
    memref.store %p, %y[%i] : memref<6xf32>
  }
  func.return
}

// An ODE time loop: explicit Euler for u' = -k u + sin(u), state in a memref updated in place.
func.func @euler(%u: memref<3xf64>, %k: f64, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %dt = arith.constant 0.05 : f64
  scf.for %t = %c0 to %steps step %c1 {
    scf.for %i = %c0 to %c3 step %c1 {
      %v = memref.load %u[%i] : memref<3xf64>
      %decay = arith.mulf %k, %v : f64
      %s = math.sin %v : f64
      %f = arith.subf %s, %decay : f64
      %step = arith.mulf %f, %dt : f64
      %v2 = arith.addf %v, %step : f64
      memref.store %v2, %u[%i] : memref<3xf64>
    }
  }
  %zero = arith.constant 0.0 : f64
  %e = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %u[%i] : memref<3xf64>
    %sq = arith.mulf %v, %v : f64
    %acc2 = arith.addf %acc, %sq : f64
    scf.yield %acc2 : f64
  }
  func.return %e : f64
}

// C = A B (f32, 2-D memrefs, three nested loops).
func.func @matmul(%A: memref<3x4xf32>, %B: memref<4x2xf32>, %C: memref<3x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %a = memref.load %A[%i, %k] : memref<3x4xf32>
        %b = memref.load %B[%k, %j] : memref<4x2xf32>
        %p = arith.mulf %a, %b : f32
        %acc2 = arith.addf %acc, %p : f32
        scf.yield %acc2 : f32
      }
      memref.store %s, %C[%i, %j] : memref<3x2xf32>
    }
  }
  func.return
}
