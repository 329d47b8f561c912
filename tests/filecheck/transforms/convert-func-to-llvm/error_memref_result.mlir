// RUN: not xenzyme-opt %s -p convert-func-to-llvm 2>&1 | filecheck %s

// CHECK: error: {{.*}}'func.func' @fresh returns a memref, which is not supported yet
// CHECK-NEXT: note: pass the memref to write into as an argument instead
func.func @fresh() -> memref<4xf64> {
  %m = memref.alloc() : memref<4xf64>
  func.return %m : memref<4xf64>
}
