// RUN: xenzyme-opt %s -p convert-scf-parallel-to-par | filecheck %s
// RUN: xenzyme-opt %s -p convert-scf-parallel-to-par | xenzyme-opt | filecheck %s

// An outermost scf.parallel whose reductions are recognised becomes a parallel region: the
// caller forks an outlined func.func (clang's signature: two thread-id pointers, then the values
// the loop uses, then one shared slot per reduction); each thread runs its share of the
// collapsed iteration range from par.static_init, reduces into a private copy started at the
// combiner's identity, and combines it into the shared slot with par.reduce.  The result parses
// and verifies (par.parallel takes a func.func with the two thread-id pointers first).

// CHECK-LABEL: func.func @f(
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[SUM:.*]] = llvm.alloca %[[ONE]] x f64
// CHECK-NEXT:    %[[MAX:.*]] = llvm.alloca %[[ONE]] x f64
// CHECK:         llvm.store %z, %[[SUM]] : f64, !llvm.ptr
// CHECK-NEXT:    llvm.store %lo, %[[MAX]] : f64, !llvm.ptr
// CHECK-NEXT:    par.parallel @f.scf_parallel.0(%A, %w, %[[SUM]], %[[MAX]]) : (memref<3x4xf64>, f64, !llvm.ptr, !llvm.ptr)
// CHECK-NEXT:    %r = llvm.load %[[SUM]] : !llvm.ptr -> f64
// CHECK-NEXT:    %r_1 = llvm.load %[[MAX]] : !llvm.ptr -> f64
// CHECK-NEXT:    %s = arith.addf %r, %r_1 : f64
// CHECK-NEXT:    func.return %s : f64

// CHECK-LABEL: func.func private @f.scf_parallel.0(%gtid: !llvm.ptr, %btid: !llvm.ptr, %A: memref<3x4xf64>, %w: f64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
// CHECK:         %[[P0:.*]] = llvm.alloca
// CHECK-NEXT:    %[[P1:.*]] = llvm.alloca
// CHECK:         %[[N:.*]] = arith.muli %{{.*}}, %[[T1:.*]] : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    %[[NEGINF:.*]] = arith.constant 0xfff0000000000000 : f64
// CHECK:         %[[PA:.*]], %[[PB:.*]] = scf.if %{{.*}} -> (f64, f64) {
// CHECK:           %[[LB:.*]], %[[UB:.*]], %{{.*}}, %{{.*}} = par.static_init static %{{.*}} to %[[LAST:.*]] step %[[C1:.*]] chunk %[[C1]] : i64
// CHECK-NEXT:      %[[LO:.*]] = arith.index_cast %[[LB]] : i64 to index
// CHECK-NEXT:      %[[MIN:.*]] = arith.minsi %[[UB]], %[[LAST]] : i64
// CHECK:           %{{.*}}, %{{.*}} = scf.for %[[K:.*]] = %[[LO]] to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %[[ZERO]], %[[M:.*]] = %[[NEGINF]]) -> (f64, f64) {
// CHECK-NEXT:        %[[J:.*]] = arith.remsi %[[K]], %[[T1]] : index
// CHECK-NEXT:        %[[I:.*]] = arith.divsi %[[K]], %[[T1]] : index
// CHECK:             %v = memref.load %A[%i, %j] : memref<3x4xf64>
// CHECK:             arith.addf %[[S]], %{{.*}} : f64
// CHECK-NEXT:        arith.maximumf %[[M]], %{{.*}} : f64
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      par.static_fini
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[ZERO]], %[[NEGINF]] : f64, f64
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.store %[[PA]], %[[P0]] : f64, !llvm.ptr
// CHECK-NEXT:    par.reduce add %{{.*}}, %[[P0]] nowait : f64
// CHECK-NEXT:    llvm.store %[[PB]], %[[P1]] : f64, !llvm.ptr
// CHECK-NEXT:    par.reduce max %{{.*}}, %[[P1]] nowait : f64
// CHECK-NEXT:    func.return
func.func @f(%A: memref<3x4xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f64
  %lo = arith.constant -1.0e300 : f64
  %r:2 = "scf.parallel"(%c0, %c0, %c3, %c4, %c1, %c1, %z, %lo) <{operandSegmentSizes = array<i32: 2, 2, 2, 2>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %A[%i, %j] : memref<3x4xf64>
    %q = arith.mulf %v, %w : f64
    "scf.reduce"(%q, %v) ({
    ^bb1(%a: f64, %b: f64):
      %t = arith.addf %a, %b : f64
      "scf.reduce.return"(%t) : (f64) -> ()
    }, {
    ^bb2(%a2: f64, %b2: f64):
      %m = arith.maximumf %a2, %b2 : f64
      "scf.reduce.return"(%m) : (f64) -> ()
    }) : (f64, f64) -> ()
  }) : (index, index, index, index, index, index, f64, f64) -> (f64, f64)
  %s = arith.addf %r#0, %r#1 : f64
  func.return %s : f64
}

// A minimum written as cmpf + select is recognised; a loop nested in the region stays an
// scf.parallel there (the thread runs it; lower-structured serialises it).

// CHECK-LABEL: func.func @g(
// CHECK:         par.parallel @g.scf_parallel.0(%x, %{{.*}}) : (memref<4x4xf64>, !llvm.ptr)
// CHECK-LABEL: func.func private @g.scf_parallel.0(
// CHECK:         "scf.parallel"
// CHECK:         par.reduce min
func.func @g(%x: memref<4x4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %hi = arith.constant 1.0e300 : f64
  %r = "scf.parallel"(%c0, %c4, %c1, %hi) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb1(%j: index):
      %v = memref.load %x[%i, %j] : memref<4x4xf64>
      %d = arith.addf %v, %v : f64
      memref.store %d, %x[%i, %j] : memref<4x4xf64>
      scf.reduce
    }) : (index, index, index) -> ()
    %e = memref.load %x[%i, %c0] : memref<4x4xf64>
    "scf.reduce"(%e) ({
    ^bb2(%a: f64, %b: f64):
      %lt = arith.cmpf olt, %a, %b : f64
      %m = arith.select %lt, %a, %b : f64
      "scf.reduce.return"(%m) : (f64) -> ()
    }) : (f64) -> ()
  }) : (index, index, index, f64) -> f64
  func.return %r : f64
}

// A combiner that is not recognised (a sum written as a - (-b)), or a reduction of integers:
// the loop is left alone (lower-structured runs it serially).

// CHECK-LABEL: func.func @h(
// CHECK-NOT:     par.parallel
// CHECK:         "scf.parallel"
// CHECK:         "scf.parallel"
// CHECK-NOT:     par.parallel
// CHECK:         func.return
func.func @h(%x: memref<6xf64>) -> (f64, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %z = arith.constant 0.0 : f64
  %r = "scf.parallel"(%c0, %c6, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<6xf64>
    "scf.reduce"(%v) ({
    ^bb1(%a: f64, %b: f64):
      %nb = arith.negf %b : f64
      %s = arith.subf %a, %nb : f64
      "scf.reduce.return"(%s) : (f64) -> ()
    }) : (f64) -> ()
  }) : (index, index, index, f64) -> f64
  %n = "scf.parallel"(%c0, %c6, %c1, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    "scf.reduce"(%i) ({
    ^bb1(%a: index, %b: index):
      %s = arith.addi %a, %b : index
      "scf.reduce.return"(%s) : (index) -> ()
    }) : (index) -> ()
  }) : (index, index, index, index) -> index
  func.return %r, %n : f64, index
}

// A loop in a function that a loop's body calls is run by that loop's threads: left alone.

// CHECK-LABEL: func.func @row(
// CHECK-NOT:     par.parallel
// CHECK:         "scf.parallel"
// CHECK-LABEL: func.func @rows(
// CHECK:         par.parallel @rows.scf_parallel.0(%x) : (memref<4x4xf64>)
func.func @row(%x: memref<4x4xf64>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    %v = memref.load %x[%i, %j] : memref<4x4xf64>
    %d = arith.mulf %v, %v : f64
    memref.store %d, %x[%i, %j] : memref<4x4xf64>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

func.func @rows(%x: memref<4x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    func.call @row(%x, %i) : (memref<4x4xf64>, index) -> ()
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}
