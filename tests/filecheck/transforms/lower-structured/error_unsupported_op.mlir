// RUN: not xenzyme-opt %s -p lower-structured 2>&1 | filecheck %s

// An scf op other than for/if/while is an error naming it and where it is.

// CHECK: xenzyme-opt: error: {{.*}}error_unsupported_op.mlir:8:3: 'scf.execute_region' is not supported yet
// CHECK-NEXT: note: use scf.for, scf.if and scf.while
func.func @f(%x: f64) -> f64 {
  %r = scf.execute_region -> f64 {
    scf.yield %x : f64
  }
  func.return %r : f64
}
