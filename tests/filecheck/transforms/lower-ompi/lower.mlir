// RUN: xenzyme-opt %s -p lower-ompi | filecheck %s
// RUN: xenzyme-opt %s -p lower-ompi -t llvm | filecheck %s --check-prefix=IR
// RUN: xenzyme-opt %s -p lower-ompi -t llvm | filecheck %s --check-prefix=UNUSED

// An MPI call op becomes the call it stands for; the ops derivative rules emit become calls of
// internal helpers, which are copied into the module with what they call (finish starts a
// reverse operation no wait started), and only those used.

llvm.mlir.global external @ompi_mpi_double() {addr_space = 0 : i32} : !llvm.opaque_struct<"struct.ompi_predefined_datatype_t">
llvm.mlir.global external @ompi_mpi_comm_world() {addr_space = 0 : i32} : !llvm.opaque_struct<"struct.ompi_predefined_communicator_t">

llvm.func @f(%x: !llvm.ptr, %dx: !llvm.ptr, %t: !llvm.ptr, %n: i32, %peer: i32, %req: !llvm.ptr, %dreq: !llvm.ptr) -> i32 {
  %dt = llvm.mlir.addressof @ompi_mpi_double : !llvm.ptr
  %comm = llvm.mlir.addressof @ompi_mpi_comm_world : !llvm.ptr
  %e = ompi.isend %x, %n, %dt, %peer, %n, %comm, %req
  ompi.request_record isend %dreq, %dx, %n, %dt, %peer, %n, %comm : f64
  ompi.request_finish %dreq
  ompi.accumulate %dx, %t, %n : f64
  %m = ompi.owners min %x, %n, %dt, %comm : f32
  %r = ompi.rank %comm
  %w = ompi.call @MPI_Wtime() : () -> f64
  llvm.return %e : i32
}

// CHECK-LABEL: llvm.func @f(
// CHECK:         %[[E:.*]] = llvm.call @MPI_Isend(%x, %n, %dt, %peer, %n, %comm, %req) : (!llvm.ptr, i32, !llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-NEXT:    %[[ISEND:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT:    llvm.call @xenzyme.mpi.record(%dreq, %[[ISEND]], %dx, %n, %[[EIGHT]], %dt, %peer, %n, %comm)
// CHECK-NEXT:    llvm.call @xenzyme.mpi.finish(%dreq)
// CHECK-NEXT:    llvm.call @xenzyme.mpi.add.f64(%dx, %t, %n)
// CHECK-NEXT:    %[[MIN:.*]] = llvm.mlir.addressof @ompi_mpi_op_min : !llvm.ptr
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT:    %{{.*}} = llvm.call @xenzyme.mpi.owners(%x, %n, %dt, %comm, %[[MIN]], %[[FOUR]])
// CHECK-NEXT:    %{{.*}} = llvm.call @xenzyme.mpi.rank(%comm)
// CHECK-NEXT:    %{{.*}} = llvm.call @MPI_Wtime() : () -> f64
// CHECK-NEXT:    llvm.return %[[E]] : i32

// IR-DAG: define internal void @xenzyme.mpi.record(
// IR-DAG: define internal void @xenzyme.mpi.finish(
// IR-DAG: define internal void @xenzyme.mpi.start(
// IR-DAG: define internal void @xenzyme.mpi.add.f64(
// IR-DAG: define internal ptr @xenzyme.mpi.owners(
// IR-DAG: define internal i32 @xenzyme.mpi.rank(
// IR-DAG: @ompi_mpi_op_min = external global
// IR-DAG: declare i32 @MPI_Isend(ptr, i32, ptr, i32, i32, ptr, ptr)
// IR-DAG: declare i32 @MPI_Wait(ptr, ptr)
// UNUSED-NOT: @xenzyme.mpi.tape
