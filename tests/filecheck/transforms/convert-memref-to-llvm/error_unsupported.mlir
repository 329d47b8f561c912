// RUN: not xenzyme-opt %s -p convert-memref-to-llvm 2>&1 | filecheck %s

// CHECK: xenzyme-opt: error: {{.*}}error_unsupported.mlir:11:3: 'memref.copy' is lowered into loops while they are still scf.for
// CHECK-NEXT: note: run lower-structured, which expands copies before convert-scf-to-cf
// CHECK-NOT: Traceback

// A copy becomes scf.for loops in lower-structured, before this pass: on its own, the pass
// says so.

func.func @copy(%a: memref<4xf64>, %b: memref<4xf64>) {
  "memref.copy"(%a, %b) : (memref<4xf64>, memref<4xf64>) -> ()
  func.return
}
