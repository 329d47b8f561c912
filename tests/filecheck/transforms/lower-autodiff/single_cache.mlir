// RUN: xenzyme-opt %s -p lower-autodiff | filecheck %s

// A `single` cache (pushed outside any loop: at most one value) becomes one stack slot: push
// stores, peek loads, pop does nothing.  No heap memory is involved.

// CHECK-LABEL: llvm.func @scalar(
// CHECK-SAME:      %[[X:[^:]+]]: f64) -> f64 {
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.alloca %[[ONE]] x f64 : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[Y:.*]] = llvm.fmul %[[X]], %[[X]] : f64
// CHECK-NEXT:    llvm.store %[[Y]], %[[SLOT]] : f64, !llvm.ptr
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> f64
// CHECK-NEXT:    llvm.return %[[V]] : f64
llvm.func @scalar(%x: f64) -> f64 {
  %c = autodiff.cache.init single : !autodiff.cache<f64>
  %y = llvm.fmul %x, %x : f64
  autodiff.cache.push %c, %y : !autodiff.cache<f64>
  %v = autodiff.cache.peek %c : !autodiff.cache<f64>
  autodiff.cache.pop %c : !autodiff.cache<f64>
  llvm.return %v : f64
}

// Any element type: here a vector and a branch token, peeked in another block.
// CHECK-LABEL: llvm.func @vector_and_token(
// CHECK-SAME:      %[[V:[^:]+]]: vector<2xf64>, %[[C:[^:]+]]: i1) -> vector<2xf64> {
// CHECK-DAG:     %[[VSLOT:.*]] = llvm.alloca %{{.*}} x vector<2xf64> : (i64) -> !llvm.ptr
// CHECK-DAG:     %[[TSLOT:.*]] = llvm.alloca %{{.*}} x i8 : (i64) -> !llvm.ptr
// CHECK:         llvm.store %[[V]], %[[VSLOT]] : vector<2xf64>, !llvm.ptr
// CHECK:         llvm.store %{{.*}}, %[[TSLOT]] : i8, !llvm.ptr
// CHECK:       ^{{.*}}:
// CHECK-NEXT:    %[[T:.*]] = llvm.load %[[TSLOT]] : !llvm.ptr -> i8
// CHECK-NEXT:    %[[W:.*]] = llvm.load %[[VSLOT]] : !llvm.ptr -> vector<2xf64>
// CHECK-NEXT:    llvm.switch %[[T]] : i8, ^{{.*}} [
// CHECK-NOT:     autodiff.
// CHECK-NOT:     llvm.call
llvm.func @vector_and_token(%v: vector<2xf64>, %c: i1) -> vector<2xf64> {
  %cv = autodiff.cache.init single : !autodiff.cache<vector<2xf64>>
  %ct = autodiff.cache.init single : !autodiff.cache<i8>
  autodiff.cache.push %cv, %v : !autodiff.cache<vector<2xf64>>
  %t = llvm.zext %c : i1 to i8
  autodiff.cache.push %ct, %t : !autodiff.cache<i8>
  llvm.br ^reverse
^reverse:
  %tok = autodiff.cache.peek %ct : !autodiff.cache<i8>
  %w = autodiff.cache.peek %cv : !autodiff.cache<vector<2xf64>>
  autodiff.cache.pop %ct : !autodiff.cache<i8>
  autodiff.cache.pop %cv : !autodiff.cache<vector<2xf64>>
  llvm.switch %tok : i8, ^a [
    1: ^b
  ]
^a:
  llvm.return %w : vector<2xf64>
^b:
  llvm.return %v : vector<2xf64>
}
