// RUN: xenzyme-opt %s -p convert-memref-to-llvm | filecheck %s

// A load or store is address arithmetic on the descriptor's aligned pointer (field 1): with the
// strides the type fixes (memref<4x3xf64>: 3 and 1, offset 0), or else with those the
// descriptor holds (fields 4 and 2).

// CHECK-LABEL: func.func @static(
// CHECK-SAME:      %[[A:.*]]: memref<4x3xf64>, %[[I:.*]]: index, %[[J:.*]]: index) -> f64 {
// CHECK-NEXT:    %[[D:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<4x3xf64> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[IL:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK-NEXT:    %[[JL:.*]] = builtin.unrealized_conversion_cast %[[J]] : index to i64
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[IL]], %[[THREE]] : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.add %[[ROW]], %[[JL]] : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr %[[P]][%[[K]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[Q]] : !llvm.ptr -> f64
// CHECK:         llvm.store %[[V]], %{{.*}} : f64, !llvm.ptr
// CHECK-NEXT:    func.return %[[V]] : f64
func.func @static(%a: memref<4x3xf64>, %i: index, %j: index) -> f64 {
  %v = memref.load %a[%i, %j] : memref<4x3xf64>
  memref.store %v, %a[%j, %i] : memref<4x3xf64>
  func.return %v : f64
}

// CHECK-LABEL: func.func @dynamic(
// CHECK:         %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<?x?xf32> to
// CHECK:         %[[S0:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK-NEXT:    %[[S1:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK-NEXT:    %[[OFF:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-NEXT:    %[[T0:.*]] = llvm.mul %{{.*}}, %[[S0]] : i64
// CHECK-NEXT:    %[[K0:.*]] = llvm.add %[[OFF]], %[[T0]] : i64
// CHECK-NEXT:    %[[T1:.*]] = llvm.mul %{{.*}}, %[[S1]] : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.add %[[K0]], %[[T1]] : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr %[[P]][%[[K]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %{{.*}} = llvm.load %[[Q]] : !llvm.ptr -> f32
func.func @dynamic(%a: memref<?x?xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %a[%i, %j] : memref<?x?xf32>
  func.return %v : f32
}

// memref.alloc calls malloc for sizes x element size bytes and fills a fresh descriptor
// (offset 0, row-major strides); memref.dealloc frees the allocated pointer (field 0);
// memref.dim reads a size (field 3), or is the constant the type gives.

// CHECK-LABEL: func.func @temporary(
// CHECK-SAME:      %[[B:.*]]: memref<?xf32>) -> index {
// CHECK:         %[[N:.*]] = llvm.extractvalue %{{.*}}[3, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[N2:.*]] = llvm.mul %[[ONE]], %[[N]] : i64
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.mul %[[N2]], %[[FOUR]] : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef
// CHECK-NEXT:    %[[D0:.*]] = llvm.insertvalue %[[M]], %[[U]][0]
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[M]], %[[D0]][1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[N]], %[[D2]][3, 0]
// CHECK-NEXT:    %[[T:.*]] = llvm.insertvalue %[[ONE]], %[[D3]][4, 0]
// CHECK-NEXT:    %[[F:.*]] = llvm.extractvalue %[[T]][0]
// CHECK-NEXT:    llvm.call @free(%[[F]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK:         %{{.*}} = llvm.alloca %{{.*}} x i8 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[SEVEN:.*]] = llvm.mlir.constant(7) : i64
// CHECK:         func.return
// CHECK:       llvm.func @malloc(i64) -> !llvm.ptr
// CHECK:       llvm.func @free(!llvm.ptr)
func.func @temporary(%b: memref<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %n = memref.dim %b, %c0 : memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  %s = memref.alloca() : memref<2x7xf32>
  %c1 = arith.constant 1 : index
  %seven = memref.dim %s, %c1 : memref<2x7xf32>
  func.return %seven : index
}
