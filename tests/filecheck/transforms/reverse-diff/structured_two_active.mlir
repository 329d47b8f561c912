// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// A request with two active arguments: the derivative function returns both derivatives, and
// the request's literal struct of them is built from the call's results.

// CHECK-LABEL: func.func @df
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    %[[DX:.*]], %[[DY:.*]] = func.call @diffe_f(%x, %y, %[[ONE]]) : (f64, f64, f64) -> (f64, f64)
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64)>
// CHECK-NEXT:    %[[S:.*]] = llvm.insertvalue %[[DX]], %[[U]][0] : !llvm.struct<(f64, f64)>
// CHECK-NEXT:    %d = llvm.insertvalue %[[DY]], %[[S]][1] : !llvm.struct<(f64, f64)>
// CHECK-LABEL: func.func private @diffe_f(%x: f64, %y: f64, %seed: f64) -> (f64, f64)
// CHECK:         func.return %{{.*}}, %{{.*}} : f64, f64
func.func @f(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = math.sin %p : f64
  func.return %s : f64
}

func.func @df(%x: f64, %y: f64, %out: memref<2xf64>) {
  %d = autodiff.autodiff @f(%x, %y) activity [active, active] ret active : (f64, f64) -> !llvm.struct<(f64, f64)>
  %a = llvm.extractvalue %d[0] : !llvm.struct<(f64, f64)>
  %b = llvm.extractvalue %d[1] : !llvm.struct<(f64, f64)>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %a, %out[%c0] : memref<2xf64>
  memref.store %b, %out[%c1] : memref<2xf64>
  func.return
}
