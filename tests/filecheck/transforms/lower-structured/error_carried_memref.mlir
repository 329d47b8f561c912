// RUN: not xenzyme-opt %s -p lower-structured 2>&1 | filecheck %s

// A memref carried by a loop is not supported yet (a struct of pointers in a block argument):
// an error, not a derivative that may miss the memref's shadow.

// CHECK: xenzyme-opt: error: {{.*}}error_carried_memref.mlir:11:3: 'scf.for' carries a memref from one iteration or branch to the next, which is not supported yet
// CHECK-NEXT: note: load the values the loop needs from memrefs defined outside it
func.func @carried(%a: memref<4xf64>, %b: memref<4xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %a) -> (memref<4xf64>) {
    scf.yield %b : memref<4xf64>
  }
  %v = memref.load %m[%c0] : memref<4xf64>
  func.return %v : f64
}
