// RUN: not xenzyme-opt %s -p convert-memref-to-llvm 2>&1 | filecheck %s

// CHECK: xenzyme-opt: error: {{.*}}error_unsupported_op.mlir:8:3: 'memref.extract_aligned_pointer_as_index' has no lowering to the llvm dialect yet
// CHECK-NEXT: note: use memref.load, memref.store, memref.alloc, memref.alloca, memref.dealloc, memref.dim, memref.copy and the views (subview, cast, reinterpret_cast, expand_shape, collapse_shape)
// CHECK-NOT: Traceback

func.func @f(%a: memref<4xf64>) -> index {
  %p = "memref.extract_aligned_pointer_as_index"(%a) : (memref<4xf64>) -> index
  func.return %p : index
}
