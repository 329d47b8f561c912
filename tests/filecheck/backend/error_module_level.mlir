// RUN: not xenzyme-opt %s -t obj -o %t.o 2>&1 | filecheck %s

// Only llvm.func, llvm.mlir.global and llvm.mlir.alias can be exported.

func.func @g() {
  func.return
}

// CHECK:      xenzyme-opt: error: cannot export 'func.func' at module level to LLVM IR
// CHECK-NEXT: note: only llvm.func, llvm.mlir.global and llvm.mlir.alias can be exported
// CHECK-NOT:  Traceback
