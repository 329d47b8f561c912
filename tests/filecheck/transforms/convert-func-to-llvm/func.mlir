// RUN: xenzyme-opt %s -p convert-func-to-llvm | filecheck %s

// A memref parameter becomes the descriptor's fields (allocated, aligned, offset, sizes,
// strides), which the entry block puts back together; index becomes i64; a private function
// is internal; calls pass a memref's fields one by one.

// CHECK-LABEL: llvm.func internal @scale(
// CHECK-SAME:      %[[X:.*]]: f64, %[[K:.*]]: i64) -> f64 {
// CHECK-NEXT:    %{{.*}} = builtin.unrealized_conversion_cast %[[K]] : i64 to index
func.func private @scale(%x: f64, %k: index) -> f64 {
  %ki = arith.index_cast %k : index to i64
  %kf = arith.sitofp %ki : i64 to f64
  %r = arith.mulf %x, %kf : f64
  func.return %r : f64
}

// CHECK-LABEL: llvm.func @first(
// CHECK-SAME:      %[[P:a_allocated]]: !llvm.ptr, %[[Q:a_aligned]]: !llvm.ptr, %[[OFF:a_offset]]: i64, %[[N:a_size0]]: i64, %[[S:a_stride0]]: i64) -> f64 {
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:    %[[D0:.*]] = llvm.insertvalue %[[P]], %[[U]][0]
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[Q]], %[[D0]][1]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[OFF]], %[[D1]][2]
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[N]], %[[D2]][3, 0]
// CHECK-NEXT:    %[[D:.*]] = llvm.insertvalue %[[S]], %[[D3]][4, 0]
// CHECK-NEXT:    %a = builtin.unrealized_conversion_cast %[[D]] : !llvm.struct<{{.*}}> to memref<?xf64>
// CHECK:         %[[R:.*]] = llvm.call @scale(%v, %{{.*}}) : (f64, i64) -> f64
// CHECK-NEXT:    llvm.return %[[R]] : f64
func.func @first(%a: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf64>
  %c2 = arith.constant 2 : index
  %r = func.call @scale(%v, %c2) : (f64, index) -> f64
  func.return %r : f64
}

// A call with a memref operand passes its five fields; a void call has no result.

// CHECK-LABEL: llvm.func @caller(
// CHECK:         %[[F0:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK-NEXT:    %[[F1:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[F2:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK-NEXT:    %[[F3:.*]] = llvm.extractvalue %{{.*}}[3, 0]
// CHECK-NEXT:    %[[F4:.*]] = llvm.extractvalue %{{.*}}[4, 0]
// CHECK-NEXT:    %{{.*}} = llvm.call @first(%[[F0]], %[[F1]], %[[F2]], %[[F3]], %[[F4]]) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> f64
// CHECK:         llvm.call @sink(%{{.*}}) : (f64) -> ()
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func @sink(f64)
func.func @caller(%a: memref<?xf64>) {
  %r = func.call @first(%a) : (memref<?xf64>) -> f64
  func.call @sink(%r) : (f64) -> ()
  func.return
}
func.func private @sink(f64)

// A derivative request on a func.func: the dup memref and its shadow become two dup pointer
// pairs (allocated, aligned) and const offset, size and stride.

// CHECK-LABEL: llvm.func @grad(
// CHECK:         autodiff.autodiff @first(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) activity [dup, dup, const, const, const] ret active : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
func.func @grad(%a: memref<?xf64>, %da: memref<?xf64>) {
  autodiff.autodiff @first(%a, %da) activity [dup] ret active : (memref<?xf64>, memref<?xf64>) -> ()
  func.return
}
