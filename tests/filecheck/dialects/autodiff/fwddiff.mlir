// RUN: XENZYME_ROUNDTRIP
// RUN: xenzyme-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// autodiff.fwddiff prints in its custom syntax (`width` only when it is not 1) and survives a
// round trip through the generic syntax.

llvm.func @f(%x: f64, %p: !llvm.ptr, %n: i32) -> f64 {
  llvm.return %x : f64
}
llvm.func @g(%p: !llvm.ptr) {
  llvm.return
}
llvm.func @h(%x: f32) -> i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.return %c : i32
}

// CHECK-LABEL: llvm.func @requests
llvm.func @requests(%x: f64, %dx: f64, %dx2: f64, %p: !llvm.ptr, %dp: !llvm.ptr, %dp2: !llvm.ptr, %n: i32, %y: f32, %dy: f32) -> f64 {
  // CHECK: %{{.*}} = autodiff.fwddiff @f(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [dup, dupnoneed, const] ret dupnoneed : (f64, f64, !llvm.ptr, !llvm.ptr, i32) -> f64
  %a = autodiff.fwddiff @f(%x, %dx, %p, %dp, %n) activity [dup, dupnoneed, const] ret dupnoneed : (f64, f64, !llvm.ptr, !llvm.ptr, i32) -> f64
  // CHECK: %{{.*}} = autodiff.fwddiff @f(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [dup, dup, const] ret dupnoneed width 2 : (f64, f64, f64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> !llvm.struct<(f64, f64)>
  %b = autodiff.fwddiff @f(%x, %dx, %dx2, %p, %dp, %dp2, %n) activity [dup, dup, const] ret dupnoneed width 2 : (f64, f64, f64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> !llvm.struct<(f64, f64)>
  // CHECK: %{{.*}} = autodiff.fwddiff @f(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [dup, const, const] ret dup : (f64, f64, !llvm.ptr, i32) -> !llvm.struct<(f64, f64)>
  %c = autodiff.fwddiff @f(%x, %dx, %p, %n) activity [dup, const, const] ret dup : (f64, f64, !llvm.ptr, i32) -> !llvm.struct<(f64, f64)>
  // CHECK: autodiff.fwddiff @f(%{{.*}}, %{{.*}}, %{{.*}}) activity [const, const, const] ret const : (f64, !llvm.ptr, i32) -> ()
  autodiff.fwddiff @f(%x, %p, %n) activity [const, const, const] ret const : (f64, !llvm.ptr, i32) -> ()
  // CHECK: autodiff.fwddiff @g(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [dup] ret none width 3 : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  autodiff.fwddiff @g(%p, %dp, %dp2, %dp) activity [dup] ret none width 3 : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  // CHECK: autodiff.fwddiff @h(%{{.*}}, %{{.*}}) activity [dup] ret const : (f32, f32) -> ()
  autodiff.fwddiff @h(%y, %dy) activity [dup] ret const : (f32, f32) -> ()
  llvm.return %a : f64
}

// GENERIC: "autodiff.fwddiff"(%{{.*}}) <{callee = @f, activity = ["dup", "dup", "const"], ret_activity = "dupnoneed", width = 2 : i64}> : (f64, f64, f64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> !llvm.struct<(f64, f64)>
