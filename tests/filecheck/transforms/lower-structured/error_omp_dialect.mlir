// RUN: not xenzyme-opt %s -p lower-structured 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s -p enzyme -t obj -o %t.o 2>&1 | filecheck %s

// MLIR's OpenMP dialect in structured input is an error naming the op and its line, not a
// region left for the exporter (or dropped): scf.parallel is the way to write a parallel loop.

// CHECK: xenzyme-opt: error: {{.*}}error_omp_dialect.mlir:11:3: 'omp.parallel' (MLIR's OpenMP dialect) is not supported
// CHECK-NEXT: note: write the parallel loop as an scf.parallel: lowered, it runs on threads, in the primal and in its derivatives
func.func @f(%a: memref<4xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  "omp.parallel"() ({
    memref.store %x, %a[%c0] : memref<4xf64>
    "omp.terminator"() : () -> ()
  }) {operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0>} : () -> ()
  %v = memref.load %a[%c0] : memref<4xf64>
  %r = arith.mulf %v, %x : f64
  func.return %r : f64
}
