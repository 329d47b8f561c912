// RUN: xenzyme-opt %s -p lower-structured | filecheck %s
// RUN: xenzyme-opt %s -p lower-structured,lower-par -t llvm | filecheck %s --check-prefix=OMP

// lower-structured runs an outermost scf.parallel on threads: the outlined region becomes an
// llvm.func with clang's signature (gtid, btid, the captured values -- a memref as its
// descriptor's fields -- then the reduction's shared slot, marked as a local slot as
// raise-openmp marks clang's), forked by par.parallel; lower-par turns it into libomp calls.

// CHECK-LABEL: llvm.func @f(
// CHECK:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x f64
// CHECK:         llvm.store %z, %[[SLOT]] : f64, !llvm.ptr
// CHECK-NEXT:    par.parallel @f.scf_parallel.0(%x_allocated, %x_aligned, %x_offset, %x_size0, %x_stride0, %w, %y_allocated, %y_aligned, %y_offset, %y_size0, %y_stride0, %[[SLOT]]) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, f64, !llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr)
// CHECK-NEXT:    %r = llvm.load %[[SLOT]] : !llvm.ptr -> f64
// CHECK-NEXT:    llvm.return %r : f64

// CHECK-LABEL: llvm.func internal @f.scf_parallel.0(
// CHECK-SAME:    %gtid: !llvm.ptr, %btid: !llvm.ptr, %x_allocated_1: !llvm.ptr, %x_aligned_1: !llvm.ptr, %x_offset_1: i64, %x_size0_1: i64, %x_stride0_1: i64, %w_1: f64, %y_allocated_1: !llvm.ptr, %y_aligned_1: !llvm.ptr, %y_offset_1: i64, %y_size0_1: i64, %y_stride0_1: i64, %[[SHARED:.*]]: !llvm.ptr {xenzyme.local_slot}) {
// CHECK:         %[[PRIVATE:.*]] = llvm.alloca %{{.*}} x f64
// CHECK:         par.static_init static %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i64
// CHECK:         %v = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK:         par.static_fini
// CHECK:         llvm.store %{{.*}}, %[[PRIVATE]] : f64, !llvm.ptr
// CHECK-NEXT:    par.reduce add %[[SHARED]], %[[PRIVATE]] nowait : f64
// CHECK-NEXT:    llvm.return

// OMP-LABEL: define double @f(
// OMP:         call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{.*}}, i32 12, ptr @f.scf_parallel.0{{.*}}
// OMP-LABEL: define internal void @f.scf_parallel.0(
// OMP:         call void @__kmpc_for_static_init_8(
// OMP:         call void @__kmpc_for_static_fini(
func.func @f(%x: memref<8xf64>, %y: memref<8xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f64
  %r = "scf.parallel"(%c0, %c8, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<8xf64>
    %x0 = memref.load %x[%c0] : memref<8xf64>
    %q = arith.mulf %v, %w : f64
    %t = arith.addf %q, %x0 : f64
    memref.store %t, %y[%i] : memref<8xf64>
    "scf.reduce"(%t) ({
    ^bb1(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      "scf.reduce.return"(%s) : (f64) -> ()
    }) : (f64) -> ()
  }) : (index, index, index, f64) -> f64
  func.return %r : f64
}
