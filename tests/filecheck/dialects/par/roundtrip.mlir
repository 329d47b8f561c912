// RUN: XENZYME_ROUNDTRIP

// Every par op, printed in its custom syntax, read back from the generic form.

llvm.mlir.global internal @lock() {addr_space = 0 : i32} : !llvm.array<8 x i32>

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr, %n: !llvm.ptr, %x: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c9 = llvm.mlir.constant(9 : i64) : i64
  %c1l = llvm.mlir.constant(1 : i64) : i64
  %lb, %ub, %st, %last = par.static_init static %c0 to %c4 step %c1 chunk %c1 : i32
  par.static_fini
  %lb2, %ub2, %st2, %last2 = par.static_init static_chunked monotonic unsigned %c0 to %c4 step %c1 chunk %c4 : i32
  par.static_fini
  par.dispatch_init dynamic nonmonotonic %c1l to %c9 step %c1l chunk %c1l : i64
  %more, %lb3, %ub3, %st3, %last3 = par.dispatch_next : i64
  par.dispatch_fini
  par.dispatch_init guided unsigned %c0 to %c4 step %c1 chunk %c1 : i32
  %more4, %lb4, %ub4, %st4, %last4 = par.dispatch_next unsigned : i32
  par.dispatch_fini
  %tid = par.thread_num : i32
  %nt = par.num_threads : i32
  "omp.barrier"() : () -> ()
  "omp.flush"() : () -> ()
  par.reduce add %x, %n : f64
  par.reduce max %x, %n count 8 nowait : f32
  par.reduce umin %x, %n count 2 : i32
  par.reduce xor %x, %n nowait : i64
  par.critical_begin @lock
  par.critical_end @lock
  %first = par.single_begin
  par.single_end
  %m = par.master_begin
  par.master_end
  %v = llvm.mlir.constant(2.0 : f64) : f64
  par.atomic_update mul %x, %v monotonic : f64
  par.atomic_update max %x, %v seq_cst : f64
  llvm.return
}

llvm.func @caller(%n: !llvm.ptr, %x: !llvm.ptr, %k: i32) {
  par.parallel @region(%n, %x) : (!llvm.ptr, !llvm.ptr)
  par.parallel @region(%n, %x) num_threads(%k : i32) : (!llvm.ptr, !llvm.ptr)
  par.parallel @region(%n, %x) num_threads(%k : i32) proc_bind(close) : (!llvm.ptr, !llvm.ptr)
  par.parallel @region(%n, %x) serial : (!llvm.ptr, !llvm.ptr)
  llvm.return
}

// CHECK-LABEL: llvm.func internal @region(
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = par.static_init static %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i32
// CHECK-NEXT:    par.static_fini
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = par.static_init static_chunked monotonic unsigned %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i32
// CHECK-NEXT:    par.static_fini
// CHECK-NEXT:    par.dispatch_init dynamic nonmonotonic %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i64
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = par.dispatch_next : i64
// CHECK-NEXT:    par.dispatch_fini
// CHECK-NEXT:    par.dispatch_init guided unsigned %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i32
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = par.dispatch_next unsigned : i32
// CHECK-NEXT:    par.dispatch_fini
// CHECK-NEXT:    %{{.*}} = par.thread_num : i32
// CHECK-NEXT:    %{{.*}} = par.num_threads : i32
// CHECK-NEXT:    "omp.barrier"() : () -> ()
// CHECK-NEXT:    "omp.flush"() : () -> ()
// CHECK-NEXT:    par.reduce add %x, %n : f64
// CHECK-NEXT:    par.reduce max %x, %n count 8 nowait : f32
// CHECK-NEXT:    par.reduce umin %x, %n count 2 : i32
// CHECK-NEXT:    par.reduce xor %x, %n nowait : i64
// CHECK-NEXT:    par.critical_begin @lock
// CHECK-NEXT:    par.critical_end @lock
// CHECK-NEXT:    %{{.*}} = par.single_begin
// CHECK-NEXT:    par.single_end
// CHECK-NEXT:    %{{.*}} = par.master_begin
// CHECK-NEXT:    par.master_end
// CHECK:         par.atomic_update mul %x, %{{.*}} monotonic : f64
// CHECK-NEXT:    par.atomic_update max %x, %{{.*}} seq_cst : f64
// CHECK-LABEL: llvm.func @caller(
// CHECK-NEXT:    par.parallel @region(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr)
// CHECK-NEXT:    par.parallel @region(%{{.*}}, %{{.*}}) num_threads(%{{.*}} : i32) : (!llvm.ptr, !llvm.ptr)
// CHECK-NEXT:    par.parallel @region(%{{.*}}, %{{.*}}) num_threads(%{{.*}} : i32) proc_bind(close) : (!llvm.ptr, !llvm.ptr)
// CHECK-NEXT:    par.parallel @region(%{{.*}}, %{{.*}}) serial : (!llvm.ptr, !llvm.ptr)
