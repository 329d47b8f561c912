// RUN: XENZYME_ROUNDTRIP
// RUN: xenzyme-opt %s --split-input-file | filecheck %s

// Requests at the structured level: the callee is a func.func, memrefs are dup arguments
// followed by their shadows (reverse) or tangents (forward).

// CHECK-LABEL: func.func @grad(
// CHECK: %{{.*}} = autodiff.autodiff @loss(%a, %da, %x) activity [dup, active] ret active : (memref<?xf64>, memref<?xf64>, f64) -> f64
// CHECK-LABEL: func.func @tan(
// CHECK: %{{.*}} = autodiff.fwddiff @loss(%a, %ta, %x) activity [dup, const] ret dupnoneed : (memref<?xf64>, memref<?xf64>, f64) -> f64
func.func @loss(%a: memref<?xf64>, %x: f64) -> f64 {
  func.return %x : f64
}
func.func @grad(%a: memref<?xf64>, %da: memref<?xf64>, %x: f64) -> f64 {
  %g = autodiff.autodiff @loss(%a, %da, %x) activity [dup, active] ret active : (memref<?xf64>, memref<?xf64>, f64) -> f64
  func.return %g : f64
}
func.func @tan(%a: memref<?xf64>, %ta: memref<?xf64>, %x: f64) -> f64 {
  %t = autodiff.fwddiff @loss(%a, %ta, %x) activity [dup, const] ret dupnoneed : (memref<?xf64>, memref<?xf64>, f64) -> f64
  func.return %t : f64
}
