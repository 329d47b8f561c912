// scf.parallel loops run on a team of threads (tests/test_mlir_parallel_threads.py), in xDSL's
// generic syntax (scf.parallel has no custom one in xDSL).  Iterations read memory other
// iterations read too (their adjoints race), write disjoint outputs, and reduce.

// A strided range (i = 1, 3, .., 9: five iterations, uneven over 2 or 4 threads), reading each
// neighbour and x[0]; y[i] written, and the sum of y[i]^2 returned (plus the initial 0.5).
func.func @stencil(%x: memref<11xf64>, %y: memref<11xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %half = arith.constant 0.5 : f64
  %r = "scf.parallel"(%c1, %c10, %c2, %half) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %v = memref.load %x[%i] : memref<11xf64>
    %l = memref.load %x[%im] : memref<11xf64>
    %rr = memref.load %x[%ip] : memref<11xf64>
    %x0 = memref.load %x[%c0] : memref<11xf64>
    %vw = arith.mulf %v, %w : f64
    %s = math.sin %vw : f64
    %sl = arith.mulf %s, %l : f64
    %rx = arith.mulf %rr, %x0 : f64
    %t = arith.addf %sl, %rx : f64
    memref.store %t, %y[%i] : memref<11xf64>
    %tt = arith.mulf %t, %t : f64
    "scf.reduce"(%tt) ({
    ^bb1(%a: f64, %b: f64):
      %sum = arith.addf %a, %b : f64
      "scf.reduce.return"(%sum) : (f64) -> ()
    }) : (f64) -> ()
  }) : (index, index, index, f64) -> f64
  func.return %r : f64
}

// Two dimensions, collapsed; three reductions: a product, a maximum (arith.maximumf) and a
// minimum (cmpf + select).  B[i, j] is written, A[0, j] read by every row.
func.func @grid(%A: memref<5x3xf64>, %B: memref<5x3xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f64
  %tenth = arith.constant 0.1 : f64
  %lo = arith.constant -1.0e300 : f64
  %hi = arith.constant 1.0e300 : f64
  %r:3 = "scf.parallel"(%c0, %c0, %c5, %c3, %c1, %c1, %one, %lo, %hi) <{operandSegmentSizes = array<i32: 2, 2, 2, 3>}> ({
  ^bb0(%i: index, %j: index):
    %a = memref.load %A[%i, %j] : memref<5x3xf64>
    %a0 = memref.load %A[%c0, %j] : memref<5x3xf64>
    %aw = arith.mulf %a, %w : f64
    %b = arith.addf %aw, %a0 : f64
    memref.store %b, %B[%i, %j] : memref<5x3xf64>
    %aa = arith.mulf %a, %a : f64
    %aat = arith.mulf %aa, %tenth : f64
    %f = arith.addf %aat, %one : f64
    %cw = math.cos %aw : f64
    %g = arith.mulf %a, %cw : f64
    %h = arith.mulf %b, %a0 : f64
    "scf.reduce"(%f, %g, %h) ({
    ^bb1(%p: f64, %q: f64):
      %m = arith.mulf %p, %q : f64
      "scf.reduce.return"(%m) : (f64) -> ()
    }, {
    ^bb2(%p2: f64, %q2: f64):
      %mx = arith.maximumf %p2, %q2 : f64
      "scf.reduce.return"(%mx) : (f64) -> ()
    }, {
    ^bb3(%p3: f64, %q3: f64):
      %lt = arith.cmpf olt, %p3, %q3 : f64
      %mn = arith.select %lt, %p3, %q3 : f64
      "scf.reduce.return"(%mn) : (f64) -> ()
    }) : (f64, f64, f64) -> ()
  }) : (index, index, index, index, index, index, f64, f64, f64) -> (f64, f64, f64)
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %m2 = arith.mulf %r#1, %two : f64
  %m3 = arith.mulf %r#2, %three : f64
  %s1 = arith.addf %r#0, %m2 : f64
  %s2 = arith.addf %s1, %m3 : f64
  func.return %s2 : f64
}

// Three explicit time steps of a diffusion, each two parallel loops (the second copies back):
// the regions run inside an scf.for, and u is overwritten between them.
func.func @heat(%u: memref<8xf64>, %v: memref<8xf64>, %c: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %m2 = arith.constant -2.0 : f64
  scf.for %t = %c0 to %c3 step %c1 {
    "scf.parallel"(%c1, %c7, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %ui = memref.load %u[%i] : memref<8xf64>
      %ul = memref.load %u[%im] : memref<8xf64>
      %ur = memref.load %u[%ip] : memref<8xf64>
      %d = arith.mulf %ui, %m2 : f64
      %e = arith.addf %ul, %ur : f64
      %lap = arith.addf %d, %e : f64
      %cl = arith.mulf %c, %lap : f64
      %sq = arith.mulf %ui, %ui : f64
      %n = arith.mulf %sq, %cl : f64
      %nu = arith.addf %ui, %n : f64
      memref.store %nu, %v[%i] : memref<8xf64>
      scf.reduce
    }) : (index, index, index) -> ()
    "scf.parallel"(%c1, %c7, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%k: index):
      %vk = memref.load %v[%k] : memref<8xf64>
      memref.store %vk, %u[%k] : memref<8xf64>
      scf.reduce
    }) : (index, index, index) -> ()
  }
  func.return
}

// A combiner that is a sum written in two ops (a - (-b)): not recognised, so the loop runs
// serially (convert-scf-parallel-to-for), and its derivatives are those of the serial loop.
func.func @unrecognised(%x: memref<6xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %z = arith.constant 0.0 : f64
  %r = "scf.parallel"(%c0, %c6, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<6xf64>
    %vw = arith.mulf %v, %w : f64
    %e = math.exp %vw : f64
    "scf.reduce"(%e) ({
    ^bb1(%a: f64, %b: f64):
      %nb = arith.negf %b : f64
      %s = arith.subf %a, %nb : f64
      "scf.reduce.return"(%s) : (f64) -> ()
    }) : (f64) -> ()
  }) : (index, index, index, f64) -> f64
  func.return %r : f64
}

// Which thread ran each iteration (omp_get_thread_num from libomp): a static schedule gives
// thread k the k-th block of iterations.
func.func private @omp_get_thread_num() -> i32

func.func @thread_ids(%out: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  "scf.parallel"(%c0, %c8, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %t = func.call @omp_get_thread_num() : () -> i32
    %f = arith.sitofp %t : i32 to f64
    memref.store %f, %out[%i] : memref<8xf64>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// A long loop over a memref of dynamic size, bounds computed before it (1 .. n-1): each thread
// runs many iterations, the neighbours' adjoints race at the edges of every thread's block, and
// every iteration adds into x[0]'s adjoint.
func.func @wide(%x: memref<?xf64>, %y: memref<?xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %last = arith.subi %n, %c1 : index
  %z = arith.constant 0.0 : f64
  %r = "scf.parallel"(%c1, %last, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %v = memref.load %x[%i] : memref<?xf64>
    %l = memref.load %x[%im] : memref<?xf64>
    %rr = memref.load %x[%ip] : memref<?xf64>
    %x0 = memref.load %x[%c0] : memref<?xf64>
    %vw = arith.mulf %v, %w : f64
    %s = math.sin %vw : f64
    %sl = arith.mulf %s, %l : f64
    %rx = arith.mulf %rr, %x0 : f64
    %t = arith.addf %sl, %rx : f64
    memref.store %t, %y[%i] : memref<?xf64>
    %tt = arith.mulf %t, %v : f64
    "scf.reduce"(%tt) ({
    ^bb1(%a: f64, %b: f64):
      %sum = arith.addf %a, %b : f64
      "scf.reduce.return"(%sum) : (f64) -> ()
    }) : (f64) -> ()
  }) : (index, index, index, f64) -> f64
  func.return %r : f64
}
