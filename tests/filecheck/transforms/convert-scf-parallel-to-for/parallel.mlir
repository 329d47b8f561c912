// RUN: xenzyme-opt %s -p convert-scf-parallel-to-for | filecheck %s

// An scf.parallel becomes one scf.for per dimension; a reduction is carried through the nest
// as an iteration argument, its combiner inlined where the scf.reduce was.

// CHECK-LABEL: func.func @f(
// CHECK:         %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%[[A0:.*]] = %z) -> (f64) {
// CHECK-NEXT:      %[[IN:.*]] = scf.for %j = %c0 to %c4 step %c1 iter_args(%[[A1:.*]] = %[[A0]]) -> (f64) {
// CHECK-NEXT:        %v = memref.load %A[%i, %j] : memref<3x4xf64>
// CHECK-NEXT:        %q = arith.mulf %v, %v : f64
// CHECK-NEXT:        %t = arith.addf %[[A1]], %q : f64
// CHECK-NEXT:        scf.yield %t : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[IN]] : f64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : f64
// CHECK-NOT:     scf.parallel
func.func @f(%A: memref<3x4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f64
  %r = "scf.parallel"(%c0, %c0, %c3, %c4, %c1, %c1, %z) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %A[%i, %j] : memref<3x4xf64>
    %q = arith.mulf %v, %v : f64
    scf.reduce(%q : f64) {
    ^bb1(%a: f64, %b: f64):
      %t = arith.addf %a, %b : f64
      scf.reduce.return %t : f64
    }
  }) : (index, index, index, index, index, index, f64) -> f64
  func.return %r : f64
}
