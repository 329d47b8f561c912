// RUN: xenzyme-opt %s -p convert-memref-to-llvm | filecheck %s

// A view is a new descriptor on the same two pointers (fields 0 and 1), with the offset, sizes
// and strides of the view, as MLIR lays them out.

// Row %k of a 4x3 matrix (a rank-reducing subview: the unit dimension goes): offset k*3, size 3,
// stride 1.
// CHECK-LABEL: func.func @row(
// CHECK:         %[[D:.*]] = builtin.unrealized_conversion_cast %a : memref<4x3xf64> to
// CHECK-NEXT:    %[[K:.*]] = builtin.unrealized_conversion_cast %k : index to i64
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mul %[[K]], %[[THREE]] : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:    %[[P0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-NEXT:    %[[V0:.*]] = llvm.insertvalue %[[P0]], %[[U]][0]
// CHECK-NEXT:    %[[P1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:    %[[V1:.*]] = llvm.insertvalue %[[P1]], %[[V0]][1]
// CHECK-NEXT:    %[[V2:.*]] = llvm.insertvalue %[[OFF]], %[[V1]][2]
// CHECK-NEXT:    %[[V3:.*]] = llvm.insertvalue %[[SIZE]], %[[V2]][3, 0]
// CHECK-NEXT:    %{{.*}} = llvm.insertvalue %[[ONE]], %[[V3]][4, 0]
func.func @row(%a: memref<4x3xf64>, %k: index) -> memref<3xf64, strided<[1], offset: ?>> {
  %r = memref.subview %a[%k, 0] [1, 3] [1, 1] : memref<4x3xf64> to memref<3xf64, strided<[1], offset: ?>>
  func.return %r : memref<3xf64, strided<[1], offset: ?>>
}

// A view of a view with dynamic strides: the source's offset and strides are read from its
// descriptor; offset' = offset + i*stride0 + 1*stride1, strides' = stride0*2, stride1.
// CHECK-LABEL: func.func @of_dynamic(
// CHECK:         %[[D:.*]] = builtin.unrealized_conversion_cast %a : memref<?x?xf32, strided<[?, ?], offset: ?>> to
// CHECK-DAG:     %[[OFF0:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-DAG:     %[[S0:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK-DAG:     %[[S1:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK:         %[[M0:.*]] = llvm.mul %{{.*}}, %[[S0]] : i64
// CHECK-NEXT:    %[[A0:.*]] = llvm.add %[[OFF0]], %[[M0]] : i64
// CHECK-NEXT:    %[[A1:.*]] = llvm.add %[[A0]], %[[S1]] : i64
// CHECK-NEXT:    %[[ST0:.*]] = llvm.mul %[[S0]], %{{.*}} : i64
// CHECK:         llvm.insertvalue %[[A1]], %{{.*}}[2]
// CHECK:         llvm.insertvalue %[[ST0]], %{{.*}}[4, 0]
// CHECK:         llvm.insertvalue %[[S1]], %{{.*}}[4, 1]
func.func @of_dynamic(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %i: index, %n: index) -> memref<?x2xf32, strided<[?, ?], offset: ?>> {
  %r = memref.subview %a[%i, 1] [%n, 2] [2, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x2xf32, strided<[?, ?], offset: ?>>
  func.return %r : memref<?x2xf32, strided<[?, ?], offset: ?>>
}

// collapse_shape multiplies the sizes of a group and keeps its innermost stride; expand_shape
// takes the sizes written and strides the group's innermost by the source's stride.
// CHECK-LABEL: func.func @reshape(
// CHECK:         %[[F:.*]] = llvm.insertvalue %{{.*}}[4, 0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:         %[[S:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[T:.*]] = llvm.mlir.constant(3) : i64
// CHECK:         llvm.insertvalue %[[S]], %{{.*}}[3, 0]
// CHECK-NEXT:    llvm.insertvalue %{{.*}}, %{{.*}}[4, 0]
// CHECK-NEXT:    llvm.insertvalue %[[T]], %{{.*}}[3, 1]
func.func @reshape(%a: memref<6xf64>) -> memref<2x3xf64> {
  %f = memref.collapse_shape %a [[0]] : memref<6xf64> into memref<6xf64>
  %e = memref.expand_shape %f [[0, 1]] output_shape [2, 3] : memref<6xf64> into memref<2x3xf64>
  func.return %e : memref<2x3xf64>
}

// memref.cast keeps the descriptor (its struct depends only on the rank).
// CHECK-LABEL: func.func @cast(
// CHECK-NEXT:    %[[D:.*]] = builtin.unrealized_conversion_cast %a : memref<4xf64> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:    %{{.*}} = builtin.unrealized_conversion_cast %[[D]] : !llvm.struct<{{.*}}> to memref<?xf64>
func.func @cast(%a: memref<4xf64>) -> memref<?xf64> {
  %c = "memref.cast"(%a) : (memref<4xf64>) -> memref<?xf64>
  func.return %c : memref<?xf64>
}
