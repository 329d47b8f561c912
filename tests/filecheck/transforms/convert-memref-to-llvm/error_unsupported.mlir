// RUN: not xenzyme-opt %s -p convert-memref-to-llvm 2>&1 | filecheck %s

// CHECK: xenzyme-opt: error: {{.*}}error_unsupported.mlir:8:3: 'memref.copy' has no lowering to the llvm dialect yet
// CHECK-NEXT: note: use memref.load, memref.store, memref.alloc, memref.alloca, memref.dealloc and memref.dim
// CHECK-NOT: Traceback

func.func @copy(%a: memref<4xf64>, %b: memref<4xf64>) {
  "memref.copy"(%a, %b) : (memref<4xf64>, memref<4xf64>) -> ()
  func.return
}
