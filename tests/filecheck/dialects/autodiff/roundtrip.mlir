// RUN: XENZYME_ROUNDTRIP
// RUN: xenzyme-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every autodiff op prints in its custom syntax and survives a round trip through the generic
// syntax.

llvm.func @f(%x: f64, %p: !llvm.ptr, %n: i32) -> f64 {
  llvm.return %x : f64
}
llvm.func @g(%p: !llvm.ptr) {
  llvm.return
}

// CHECK-LABEL: llvm.func @requests
llvm.func @requests(%x: f64, %y: f32, %p: !llvm.ptr, %dp: !llvm.ptr, %n: i32) -> f64 {
  // CHECK: %{{.*}} = autodiff.autodiff @f(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [active, dup, const] ret active : (f64, !llvm.ptr, !llvm.ptr, i32) -> f64
  %a = autodiff.autodiff @f(%x, %p, %dp, %n) activity [active, dupnoneed, const] ret active : (f64, !llvm.ptr, !llvm.ptr, i32) -> f64
  %b = autodiff.autodiff @f(%x, %p, %dp, %n) activity [active, dup, const] ret active : (f64, !llvm.ptr, !llvm.ptr, i32) -> f64
  // CHECK: autodiff.autodiff @f(%{{.*}}, %{{.*}}, %{{.*}}) activity [const, const, const] ret const : (f64, !llvm.ptr, i32) -> ()
  autodiff.autodiff @f(%x, %p, %n) activity [const, const, const] ret const : (f64, !llvm.ptr, i32) -> ()
  // CHECK: autodiff.autodiff @g(%{{.*}}, %{{.*}}) activity [dup] ret none : (!llvm.ptr, !llvm.ptr) -> ()
  autodiff.autodiff @g(%p, %dp) activity [dup] ret none : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return %b : f64
}

// CHECK-LABEL: llvm.func @caches
llvm.func @caches(%x: f64, %v: vector<4xf64>, %p: !llvm.ptr, %n: i64) -> f64 {
  // CHECK-NEXT: %[[C:.*]] = autodiff.cache.init : !autodiff.cache<f64>
  // CHECK-NEXT: %[[S:.*]] = autodiff.cache.init single : !autodiff.cache<vector<4xf64>>
  // CHECK-NEXT: autodiff.cache.reserve %[[C]], %{{.*}} : !autodiff.cache<f64>
  // CHECK-NEXT: autodiff.cache.push %[[C]], %{{.*}} : !autodiff.cache<f64>
  // CHECK-NEXT: autodiff.cache.push %[[S]], %{{.*}} : !autodiff.cache<vector<4xf64>>
  // CHECK-NEXT: %{{.*}} = autodiff.cache.peek %[[C]] : !autodiff.cache<f64>
  // CHECK-NEXT: autodiff.cache.pop %[[C]] : !autodiff.cache<f64>
  %c = autodiff.cache.init : !autodiff.cache<f64>
  %s = autodiff.cache.init single : !autodiff.cache<vector<4xf64>>
  autodiff.cache.reserve %c, %n : !autodiff.cache<f64>
  autodiff.cache.push %c, %x : !autodiff.cache<f64>
  autodiff.cache.push %s, %v : !autodiff.cache<vector<4xf64>>
  %y = autodiff.cache.peek %c : !autodiff.cache<f64>
  autodiff.cache.pop %c : !autodiff.cache<f64>
  llvm.return %y : f64
}

// CHECK-LABEL: llvm.func @accumulate
llvm.func @accumulate(%p: !llvm.ptr, %x: f64, %v: vector<2xf32>) {
  // CHECK-NEXT: autodiff.accumulate %{{.*}}, %{{.*}} : !llvm.ptr, f64
  // CHECK-NEXT: autodiff.accumulate %{{.*}}, %{{.*}} atomic : !llvm.ptr, f64
  // CHECK-NEXT: autodiff.accumulate %{{.*}}, %{{.*}} reduce {alignment = 4 : i64} : !llvm.ptr, vector<2xf32>
  autodiff.accumulate %p, %x : !llvm.ptr, f64
  autodiff.accumulate %p, %x atomic : !llvm.ptr, f64
  autodiff.accumulate %p, %v reduce {alignment = 4 : i64} : !llvm.ptr, vector<2xf32>
  llvm.return
}

// CHECK-LABEL: llvm.func @split
llvm.func @split(%x: f64, %p: !llvm.ptr, %dp: !llvm.ptr, %n: i32, %d: f64, %buf: !llvm.ptr) {
  // CHECK-NEXT: %[[R:.*]] = autodiff.augment @f(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) activity [active, dup, const] ret active tape value : (f64, !llvm.ptr, !llvm.ptr, i32) -> !llvm.struct<(!llvm.ptr, f64)>
  // CHECK-NEXT: %[[T:.*]] = llvm.extractvalue %[[R]][0]
  // CHECK-NEXT: %{{.*}} = autodiff.reverse @f(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[T]]) activity [active, dup, const] ret active tape value : (f64, !llvm.ptr, !llvm.ptr, i32, f64, !llvm.ptr) -> f64
  // CHECK-NEXT: %[[N:.*]] = autodiff.augmentsize @g activity [dup] ret none : i64
  // CHECK-NEXT: autodiff.augment @g(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]]) activity [dup] ret none tape buffer : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  // CHECK-NEXT: autodiff.reverse @g(%{{.*}}, %{{.*}}, %{{.*}}) activity [dup] ret none tape slot : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %r = autodiff.augment @f(%x, %p, %dp, %n) activity [active, dup, const] ret active tape value : (f64, !llvm.ptr, !llvm.ptr, i32) -> !llvm.struct<(!llvm.ptr, f64)>
  %t = llvm.extractvalue %r[0] : !llvm.struct<(!llvm.ptr, f64)>
  %g = autodiff.reverse @f(%x, %p, %dp, %n, %d, %t) activity [active, dup, const] ret active tape value : (f64, !llvm.ptr, !llvm.ptr, i32, f64, !llvm.ptr) -> f64
  %size = autodiff.augmentsize @g activity [dup] ret none : i64
  autodiff.augment @g(%p, %dp, %buf, %size) activity [dup] ret none tape buffer : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  autodiff.reverse @g(%p, %dp, %buf) activity [dup] ret none tape slot : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

// GENERIC: "autodiff.autodiff"({{.*}}) <{callee = @f, activity = ["active", "dupnoneed", "const"], ret_activity = "active"}>
// GENERIC: "autodiff.cache.init"() <{single}> : () -> !autodiff.cache<vector<4xf64>>
// GENERIC: "autodiff.accumulate"({{.*}}) <{mode = "atomic"}> : (!llvm.ptr, f64) -> ()
// GENERIC: "autodiff.augment"({{.*}}) <{callee = @g, activity = ["dup"], ret_activity = "none", tape_kind = "buffer", operandSegmentSizes = array<i32: 2, 0, 1, 1>}>
