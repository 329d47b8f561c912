// RUN: xenzyme-opt %s -p lower-structured | filecheck %s
// RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s --check-prefix=GRAD

// The whole lowering: scf.for becomes blocks, a memref parameter its fields, read where they
// are used (no descriptor struct is left), and the result is LLVM IR.  The program's own
// derivative request is differentiated by the enzyme pipeline.

// CHECK-LABEL: llvm.func @sum(
// CHECK-SAME:      %a_allocated: !llvm.ptr, %a_aligned: !llvm.ptr, %a_offset: i64, %a_size0: i64, %a_stride0: i64, %x: f64) -> f64 {
// CHECK-NOT:     llvm.struct
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}} : i64, f64)
// CHECK:       ^[[HEAD]](%[[I:.*]]: i64, %[[ACC:.*]]: f64):
// CHECK-NEXT:    %[[MORE:.*]] = llvm.icmp "slt" %[[I]], %a_size0 : i64
// CHECK-NEXT:    llvm.cond_br %[[MORE]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK:       ^[[BODY]]:
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr %a_aligned[%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f64
// CHECK-NEXT:    %e = llvm.intr.exp(%v) : (f64) -> f64
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    llvm.return %[[ACC]] : f64

// GRAD-LABEL: define {{.*}}double @sum(ptr {{.*}}%a_allocated, ptr {{.*}}%a_aligned, i64 {{.*}}%a_offset, i64 {{.*}}%a_size0, i64 {{.*}}%a_stride0, double {{.*}}%x)
// GRAD: @llvm.exp.f64(
// GRAD-LABEL: define {{.*}}void @grad(
// GRAD-NOT: call {{.*}}@__enzyme
// GRAD: ret void
func.func @sum(%a: memref<?xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %w = arith.mulf %e, %x : f64
    %r = arith.addf %acc, %w : f64
    scf.yield %r : f64
  }
  func.return %s : f64
}

func.func @grad(%a: memref<?xf64>, %da: memref<?xf64>, %x: f64, %out: memref<1xf64>) {
  %dx = autodiff.autodiff @sum(%a, %da, %x) activity [dup, active] ret active : (memref<?xf64>, memref<?xf64>, f64) -> f64
  %c0 = arith.constant 0 : index
  memref.store %dx, %out[%c0] : memref<1xf64>
  func.return
}
