// RUN: not xenzyme-opt %s -p reverse-diff 2>&1 | filecheck %s

// A value carrying a derivative stored into a memref passed 'const' and read back into the
// result: its derivative would be lost in memory without a shadow, so that is an error at the
// store (the structured analysis follows the data through the memref, as the llvm level does).

// CHECK: xenzyme-opt: error: {{.*}}error_structured_read_back.mlir:14:3: 'memref.store' stores a value that carries a derivative into a memref without a shadow (differentiating @f)
// CHECK-NEXT: note: pass that memref 'dup' (with a shadow array), or allocate it in the function
func.func @f(%x: f64, %buf: memref<1xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %y = arith.mulf %x, %x : f64
  // (line 14:)

  memref.store %y, %buf[%c0] : memref<1xf64>
  %z = memref.load %buf[%c0] : memref<1xf64>
  %r = math.sin %z : f64
  func.return %r : f64
}

func.func @df(%x: f64, %buf: memref<1xf64>) -> f64 {
  %d = autodiff.autodiff @f(%x, %buf) activity [active, const] ret active : (f64, memref<1xf64>) -> f64
  func.return %d : f64
}
