// RUN: not xenzyme-opt %s -p reverse-diff 2>&1 | filecheck %s

// Storing a value that carries a derivative into a memref passed 'const' is an error at the
// structured level, where the store is (not a silently dropped derivative).

// CHECK: xenzyme-opt: error: {{.*}}error_structured_store.mlir:12:3: 'memref.store' stores a value that carries a derivative into a memref without a shadow (differentiating @f)
// CHECK-NEXT: note: pass that memref 'dup' (with a shadow array), or allocate it in the function
func.func @f(%x: f64, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %y = arith.mulf %x, %x : f64
  // (line 12:)
  memref.store %y, %out[%c0] : memref<1xf64>
  func.return
}

func.func @df(%x: f64, %out: memref<1xf64>) -> f64 {
  %d = autodiff.autodiff @f(%x, %out) activity [active, const] ret none : (f64, memref<1xf64>) -> f64
  func.return %d : f64
}
