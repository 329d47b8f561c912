// RUN: not xenzyme-opt %s -p convert-func-to-llvm 2>&1 | filecheck %s

// CHECK: error: {{.*}}'func.func' @two returns 2 values; functions returning more than one value are not supported yet
// CHECK-NEXT: note: return one value, or write results into a memref
func.func @two(%x: f64) -> (f64, f64) {
  func.return %x, %x : f64, f64
}
