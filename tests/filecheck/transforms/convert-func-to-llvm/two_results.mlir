// RUN: xenzyme-opt %s -p convert-func-to-llvm,convert-arith-to-llvm,reconcile-unrealized-casts | filecheck %s

// A function returning several values (as the structured level's derivative functions do)
// returns a struct of them; a call takes them back out.

// CHECK:      llvm.func @two(%x: f64) -> !llvm.struct<(f64, f64)>
// CHECK:        %{{.*}} = llvm.mlir.undef : !llvm.struct<(f64, f64)>
// CHECK-NEXT:   %[[A:.*]] = llvm.insertvalue %x, %{{.*}}[0] : !llvm.struct<(f64, f64)>
// CHECK-NEXT:   %[[B:.*]] = llvm.insertvalue %{{.*}}, %[[A]][1] : !llvm.struct<(f64, f64)>
// CHECK-NEXT:   llvm.return %[[B]] : !llvm.struct<(f64, f64)>
func.func @two(%x: f64) -> (f64, f64) {
  %y = arith.mulf %x, %x : f64
  func.return %x, %y : f64, f64
}

// CHECK:      llvm.func @sum(%{{.*}}: f64) -> f64
// CHECK-NEXT:   %[[C:.*]] = llvm.call @two(%{{.*}}) : (f64) -> !llvm.struct<(f64, f64)>
// CHECK-NEXT:   %[[P:.*]] = llvm.extractvalue %[[C]][0] : !llvm.struct<(f64, f64)>
// CHECK-NEXT:   %[[Q:.*]] = llvm.extractvalue %[[C]][1] : !llvm.struct<(f64, f64)>
// CHECK-NEXT:   %{{.*}} = llvm.fadd %[[P]], %[[Q]] : f64
func.func @sum(%x: f64) -> f64 {
  %p, %q = func.call @two(%x) : (f64) -> (f64, f64)
  %s = arith.addf %p, %q : f64
  func.return %s : f64
}
