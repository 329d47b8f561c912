// RUN: xenzyme-opt %s -p lower-par -t llvm | %llvm-verify | filecheck %s

// The default lowering: back to libomp's entry points, as clang calls them, with this module's
// own ident_t and one __kmpc_global_thread_num per function.

llvm.mlir.global common @lock() {addr_space = 0 : i32} : !llvm.array<8 x i32> {
  %z = llvm.mlir.zero : !llvm.array<8 x i32>
  llvm.return %z : !llvm.array<8 x i32>
}

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr, %p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c99 = llvm.mlir.constant(99 : i64) : i64
  %c1l = llvm.mlir.constant(1 : i64) : i64
  %v = llvm.mlir.constant(2.0 : f64) : f64
  %lb, %ub, %st, %last = par.static_init static_chunked %c0 to %c4 step %c1 chunk %c4 : i32
  %s0 = llvm.zext %last : i1 to i32
  %s1 = llvm.add %lb, %ub : i32
  %s2 = llvm.add %s1, %st : i32
  %s3 = llvm.add %s2, %s0 : i32
  llvm.store %s3, %p : i32, !llvm.ptr
  par.static_fini
  par.dispatch_init guided unsigned %c1l to %c99 step %c1l chunk %c1l : i64
  %more, %lb2, %ub2, %st2, %last2 = par.dispatch_next unsigned : i64
  llvm.store %ub2, %p : i64, !llvm.ptr
  par.dispatch_fini
  %tid = par.thread_num : i32
  %nt = par.num_threads : i32
  %t = llvm.add %tid, %nt : i32
  llvm.store %t, %p : i32, !llvm.ptr
  "omp.barrier"() : () -> ()
  "omp.flush"() : () -> ()
  par.critical_begin @lock
  par.critical_end @lock
  %first = par.single_begin
  llvm.cond_br %first, ^single, ^after
^single:
  par.single_end
  llvm.br ^after
^after:
  %m = par.master_begin
  llvm.cond_br %m, ^master, ^done
^master:
  par.master_end
  llvm.br ^done
^done:
  par.atomic_update add %p, %v monotonic : f64
  par.atomic_update max %p, %v seq_cst : f64
  par.reduce add %p, %q nowait : f64
  par.reduce min %p, %q count 4 : f32
  par.reduce umax %p, %q : i32
  llvm.return
}

llvm.func @caller(%p: !llvm.ptr, %q: !llvm.ptr, %n: i32) {
  par.parallel @region(%p, %q) num_threads(%n : i32) proc_bind(close) : (!llvm.ptr, !llvm.ptr)
  par.parallel @region(%p, %q) serial : (!llvm.ptr, !llvm.ptr)
  llvm.return
}

// CHECK-DAG:   @.xenzyme.omp.loc = private {{.*}}constant [23 x i8] c";unknown;unknown;0;0;;\00"
// CHECK-DAG:   @.xenzyme.omp.ident.2 = private {{.*}}constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @.xenzyme.omp.loc }
// CHECK-DAG:   @.xenzyme.omp.ident.514 = private {{.*}}constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @.xenzyme.omp.loc }
// CHECK-DAG:   @.xenzyme.omp.ident.34 = private {{.*}}constant %struct.ident_t { i32 0, i32 34, i32 0, i32 22, ptr @.xenzyme.omp.loc }
// CHECK-DAG:   @.xenzyme.omp.reduction.lock = internal global [8 x i32] zeroinitializer

// CHECK-LABEL: define internal void @region(
// CHECK:         %[[GTID:.*]] = call i32 @__kmpc_global_thread_num(ptr @.xenzyme.omp.ident.2)
// CHECK:         call void @__kmpc_for_static_init_4(ptr @.xenzyme.omp.ident.514, i32 %[[GTID]], i32 33, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, i32 1, i32 4)
// CHECK:         call void @__kmpc_for_static_fini(ptr @.xenzyme.omp.ident.514, i32 %[[GTID]])
// CHECK:         call void @__kmpc_dispatch_init_8u(ptr @.xenzyme.omp.ident.514, i32 %[[GTID]], i32 36, i64 1, i64 99, i64 1, i64 1)
// CHECK:         call i32 @__kmpc_dispatch_next_8u(ptr @.xenzyme.omp.ident.514, i32 %[[GTID]], ptr
// CHECK:         call void @__kmpc_dispatch_deinit(
// CHECK:         call i32 @omp_get_thread_num()
// CHECK:         call i32 @omp_get_num_threads()
// CHECK:         call void @__kmpc_barrier(ptr @.xenzyme.omp.ident.34, i32 %[[GTID]])
// CHECK:         call void @__kmpc_flush(ptr @.xenzyme.omp.ident.2)
// CHECK:         call void @__kmpc_critical(ptr @.xenzyme.omp.ident.2, i32 %[[GTID]], ptr @lock)
// CHECK:         call void @__kmpc_end_critical(ptr @.xenzyme.omp.ident.2, i32 %[[GTID]], ptr @lock)
// CHECK:         call i32 @__kmpc_single(
// CHECK:         call void @__kmpc_end_single(
// CHECK:         call i32 @__kmpc_master(
// CHECK:         call void @__kmpc_end_master(
// CHECK:         atomicrmw fadd ptr %{{.*}}, double 2.000000e+00 monotonic
// CHECK:         load atomic i64, ptr %{{.*}} monotonic
// CHECK:         fcmp ogt double
// CHECK:         cmpxchg ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}} seq_cst seq_cst

// A reduction takes the reduction lock, combines element by element, and (blocking) waits for
// the team; one barrier after a run of blocking reductions.
// CHECK:         call void @__kmpc_critical(ptr @.xenzyme.omp.ident.2, i32 %[[GTID]], ptr @.xenzyme.omp.reduction.lock)
// CHECK:         fadd double
// CHECK:         call void @__kmpc_end_critical(ptr @.xenzyme.omp.ident.2, i32 %[[GTID]], ptr @.xenzyme.omp.reduction.lock)
// CHECK-NOT:     @__kmpc_barrier
// CHECK:         call void @__kmpc_critical(
// CHECK:         icmp ult i64 %{{.*}}, 4
// CHECK:         fcmp olt float
// CHECK:         call void @__kmpc_end_critical(
// CHECK-NOT:     @__kmpc_barrier
// CHECK:         call void @__kmpc_critical(
// CHECK:         icmp ugt i32
// CHECK:         call void @__kmpc_end_critical(
// CHECK-NEXT:    call void @__kmpc_barrier(ptr @.xenzyme.omp.ident.34, i32 %[[GTID]])

// CHECK-LABEL: define void @caller(
// CHECK:         %[[G:.*]] = call i32 @__kmpc_global_thread_num(
// CHECK:         call void @__kmpc_push_num_threads(ptr @.xenzyme.omp.ident.2, i32 %[[G]], i32 %{{.*}})
// CHECK-NEXT:    call void @__kmpc_push_proc_bind(ptr @.xenzyme.omp.ident.2, i32 %[[G]], i32 3)
// CHECK-NEXT:    call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @.xenzyme.omp.ident.2, i32 2, ptr @region, ptr %{{.*}}, ptr %{{.*}})
// CHECK-NEXT:    call void @__kmpc_serialized_parallel(ptr @.xenzyme.omp.ident.2, i32 %[[G]])
// CHECK:         call void @region(ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
// CHECK-NEXT:    call void @__kmpc_end_serialized_parallel(ptr @.xenzyme.omp.ident.2, i32 %[[G]])
