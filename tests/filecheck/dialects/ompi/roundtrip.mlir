// RUN: XENZYME_ROUNDTRIP

// Every ompi op, printed in its custom syntax, read back from the generic form.  The handles
// are OpenMPI's: addresses of its globals, MPI_IN_PLACE `(void *)1`, MPI_STATUS_IGNORE null.

llvm.mlir.global external @ompi_mpi_double() {addr_space = 0 : i32} : !llvm.opaque_struct<"struct.ompi_predefined_datatype_t">
llvm.mlir.global external @ompi_mpi_comm_world() {addr_space = 0 : i32} : !llvm.opaque_struct<"struct.ompi_predefined_communicator_t">
llvm.mlir.global external @ompi_mpi_op_sum() {addr_space = 0 : i32} : !llvm.opaque_struct<"struct.ompi_predefined_op_t">

llvm.func @calls(%x: !llvm.ptr, %y: !llvm.ptr, %n: i32, %peer: i32, %req: !llvm.ptr, %flag: !llvm.ptr) {
  %dt = llvm.mlir.addressof @ompi_mpi_double : !llvm.ptr
  %comm = llvm.mlir.addressof @ompi_mpi_comm_world : !llvm.ptr
  %sum = llvm.mlir.addressof @ompi_mpi_op_sum : !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %in_place = llvm.inttoptr %one : i64 to !llvm.ptr
  %tag = llvm.mlir.constant(7 : i32) : i32
  %e0 = ompi.send %x, %n, %dt, %peer, %tag, %comm
  %e1 = ompi.ssend %x, %n, %dt, %peer, %tag, %comm
  %e2 = ompi.bsend %x, %n, %dt, %peer, %tag, %comm
  %e3 = ompi.rsend %x, %n, %dt, %peer, %tag, %comm
  %e4 = ompi.recv %y, %n, %dt, %peer, %tag, %comm, %null
  %e5 = ompi.sendrecv %x, %n, %dt, %peer, %tag, %y, %n, %dt, %peer, %tag, %comm, %null {note = "attributes are kept"}
  %e6 = ompi.sendrecv_replace %x, %n, %dt, %peer, %tag, %peer, %tag, %comm, %null
  %e7 = ompi.isend %x, %n, %dt, %peer, %tag, %comm, %req
  %e8 = ompi.issend %x, %n, %dt, %peer, %tag, %comm, %req
  %e9 = ompi.irecv %y, %n, %dt, %peer, %tag, %comm, %req
  %e10 = ompi.wait %req, %null
  %e11 = ompi.waitall %n, %req, %null
  %e12 = ompi.test %req, %flag, %null
  %e13 = ompi.barrier %comm
  %e14 = ompi.bcast %x, %n, %dt, %peer, %comm
  %e15 = ompi.reduce %in_place, %y, %n, %dt, %sum, %peer, %comm
  %e16 = ompi.allreduce %x, %y, %n, %dt, %sum, %comm
  %e17 = ompi.reduce_scatter_block %x, %y, %n, %dt, %sum, %comm
  %e18 = ompi.gather %x, %n, %dt, %y, %n, %dt, %peer, %comm
  %e19 = ompi.scatter %x, %n, %dt, %y, %n, %dt, %peer, %comm
  %e20 = ompi.allgather %x, %n, %dt, %y, %n, %dt, %comm
  %e21 = ompi.alltoall %x, %n, %dt, %y, %n, %dt, %comm
  %e22 = ompi.call @MPI_Comm_rank(%comm, %flag) : (!llvm.ptr, !llvm.ptr) -> i32
  %t = ompi.call @MPI_Wtime() : () -> f64
  ompi.call @MPI_Pcontrol(%n) : (i32) -> ()
  llvm.return
}

// CHECK-LABEL: llvm.func @calls(
// CHECK:         %{{.*}} = ompi.send %x, %n, %dt, %peer, %tag, %comm
// CHECK-NEXT:    %{{.*}} = ompi.ssend %x, %n, %dt, %peer, %tag, %comm
// CHECK-NEXT:    %{{.*}} = ompi.bsend %x, %n, %dt, %peer, %tag, %comm
// CHECK-NEXT:    %{{.*}} = ompi.rsend %x, %n, %dt, %peer, %tag, %comm
// CHECK-NEXT:    %{{.*}} = ompi.recv %y, %n, %dt, %peer, %tag, %comm, %null
// CHECK-NEXT:    %{{.*}} = ompi.sendrecv %x, %n, %dt, %peer, %tag, %y, %n, %dt, %peer, %tag, %comm, %null {note = "attributes are kept"}
// CHECK-NEXT:    %{{.*}} = ompi.sendrecv_replace %x, %n, %dt, %peer, %tag, %peer, %tag, %comm, %null
// CHECK-NEXT:    %{{.*}} = ompi.isend %x, %n, %dt, %peer, %tag, %comm, %req
// CHECK-NEXT:    %{{.*}} = ompi.issend %x, %n, %dt, %peer, %tag, %comm, %req
// CHECK-NEXT:    %{{.*}} = ompi.irecv %y, %n, %dt, %peer, %tag, %comm, %req
// CHECK-NEXT:    %{{.*}} = ompi.wait %req, %null
// CHECK-NEXT:    %{{.*}} = ompi.waitall %n, %req, %null
// CHECK-NEXT:    %{{.*}} = ompi.test %req, %flag, %null
// CHECK-NEXT:    %{{.*}} = ompi.barrier %comm
// CHECK-NEXT:    %{{.*}} = ompi.bcast %x, %n, %dt, %peer, %comm
// CHECK-NEXT:    %{{.*}} = ompi.reduce %in_place, %y, %n, %dt, %sum, %peer, %comm
// CHECK-NEXT:    %{{.*}} = ompi.allreduce %x, %y, %n, %dt, %sum, %comm
// CHECK-NEXT:    %{{.*}} = ompi.reduce_scatter_block %x, %y, %n, %dt, %sum, %comm
// CHECK-NEXT:    %{{.*}} = ompi.gather %x, %n, %dt, %y, %n, %dt, %peer, %comm
// CHECK-NEXT:    %{{.*}} = ompi.scatter %x, %n, %dt, %y, %n, %dt, %peer, %comm
// CHECK-NEXT:    %{{.*}} = ompi.allgather %x, %n, %dt, %y, %n, %dt, %comm
// CHECK-NEXT:    %{{.*}} = ompi.alltoall %x, %n, %dt, %y, %n, %dt, %comm
// CHECK-NEXT:    %{{.*}} = ompi.call @MPI_Comm_rank(%comm, %flag) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NEXT:    %{{.*}} = ompi.call @MPI_Wtime() : () -> f64
// CHECK-NEXT:    ompi.call @MPI_Pcontrol(%n) : (i32) -> ()

llvm.func @derivatives(%dbuf: !llvm.ptr, %tmp: !llvm.ptr, %cnt: i32, %dslot: !llvm.ptr, %who: i32, %bytes: !llvm.ptr) {
  %dtype = llvm.mlir.addressof @ompi_mpi_double : !llvm.ptr
  %world = llvm.mlir.addressof @ompi_mpi_comm_world : !llvm.ptr
  ompi.accumulate %dbuf, %tmp, %cnt : f64
  ompi.accumulate %dbuf, %tmp, %cnt mask %bytes : f32
  ompi.request_record isend %dslot, %dbuf, %cnt, %dtype, %who, %cnt, %world : f64
  ompi.request_record irecv %dslot, %dbuf, %cnt, %dtype, %who, %cnt, %world : f32
  ompi.request_start %dslot, %cnt
  ompi.request_finish %dslot
  %m = ompi.owners max %dbuf, %cnt, %dtype, %world : f64
  %m2 = ompi.owners min %dbuf, %cnt, %dtype, %world : f32
  %r = ompi.rank %world
  %s = ompi.size %world
  ompi.tape_push %m
  %p = ompi.tape_pop
  llvm.return
}

// CHECK-LABEL: llvm.func @derivatives(
// CHECK:         ompi.accumulate %dbuf, %tmp, %cnt : f64
// CHECK-NEXT:    ompi.accumulate %dbuf, %tmp, %cnt mask %bytes : f32
// CHECK-NEXT:    ompi.request_record isend %dslot, %dbuf, %cnt, %dtype, %who, %cnt, %world : f64
// CHECK-NEXT:    ompi.request_record irecv %dslot, %dbuf, %cnt, %dtype, %who, %cnt, %world : f32
// CHECK-NEXT:    ompi.request_start %dslot, %cnt
// CHECK-NEXT:    ompi.request_finish %dslot
// CHECK-NEXT:    %m = ompi.owners max %dbuf, %cnt, %dtype, %world : f64
// CHECK-NEXT:    %m2 = ompi.owners min %dbuf, %cnt, %dtype, %world : f32
// CHECK-NEXT:    %r = ompi.rank %world
// CHECK-NEXT:    %s = ompi.size %world
// CHECK-NEXT:    ompi.tape_push %m
// CHECK-NEXT:    %p = ompi.tape_pop
