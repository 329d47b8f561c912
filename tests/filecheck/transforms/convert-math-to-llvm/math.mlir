// RUN: xenzyme-opt %s -p convert-math-to-llvm | filecheck %s

// math ops become LLVM's intrinsics where it has one, else calls of the C library's
// function (the f32 one for f32), declared once; rsqrt is 1/sqrt.

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.*]]: f64, %[[Y:.*]]: f32) -> f64 {
// CHECK-NEXT:    %[[E:.*]] = llvm.intr.exp(%[[X]]) : (f64) -> f64
// CHECK-NEXT:    %[[T:.*]] = llvm.intr.tanh(%[[E]]) : (f64) -> f64
// CHECK-NEXT:    %[[P:.*]] = llvm.intr.pow(%[[T]], %[[X]]) : (f64, f64) -> f64
// CHECK-NEXT:    %[[L:.*]] = llvm.call @log1p(%[[P]]) : (f64) -> f64
// CHECK-NEXT:    %[[LF:.*]] = llvm.call @expm1f(%[[Y]]) : (f32) -> f32
// CHECK-NEXT:    %[[S:.*]] = llvm.intr.sqrt(%[[L]]) : (f64) -> f64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
// CHECK-NEXT:    %[[R:.*]] = llvm.fdiv %[[ONE]], %[[S]] : f64
// CHECK-NEXT:    func.return %[[R]] : f64
// CHECK:       llvm.func @log1p(f64) -> f64
// CHECK:       llvm.func @expm1f(f32) -> f32
func.func @f(%x: f64, %y: f32) -> f64 {
  %e = math.exp %x : f64
  %t = math.tanh %e : f64
  %p = math.powf %t, %x : f64
  %l = math.log1p %p : f64
  %lf = math.expm1 %y : f32
  %r = math.rsqrt %l : f64
  func.return %r : f64
}
