; RUN: xenzyme-opt %s -p raise-mpi | filecheck %s
; RUN: xenzyme-opt %s -p raise-mpi,lower-ompi -t llvm | filecheck %s --check-prefix=BACK

; Every call of an MPI function becomes an ompi op with the call's operands, as OpenMPI's mpi.h
; has them: handles are addresses of OpenMPI's globals, MPI_IN_PLACE is (void *)1, the ignored
; statuses are null.  A function without an op of its own becomes ompi.call.  lower-ompi gives
; back the same calls.

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
%struct.ompi_predefined_op_t = type opaque
@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t
@ompi_mpi_op_sum = external global %struct.ompi_predefined_op_t

declare i32 @MPI_Init(ptr, ptr)
declare i32 @MPI_Comm_rank(ptr, ptr)
declare double @MPI_Wtime()
declare i32 @MPI_Sendrecv(ptr, i32, ptr, i32, i32, ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Allreduce(ptr, ptr, i32, ptr, ptr, ptr)
declare i32 @MPI_Waitall(i32, ptr, ptr)
declare i32 @MPI_Finalize()

define double @f(ptr %argc, ptr %argv, ptr %x, ptr %y, ptr %reqs, i32 %n, i32 %peer) {
  %rank = alloca i32
  %e0 = call i32 @MPI_Init(ptr %argc, ptr %argv)
  %e1 = call i32 @MPI_Comm_rank(ptr @ompi_mpi_comm_world, ptr %rank)
  %t0 = call double @MPI_Wtime()
  %e2 = call i32 @MPI_Sendrecv(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 1, ptr %y, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 2, ptr @ompi_mpi_comm_world, ptr null)
  %e3 = call i32 @MPI_Allreduce(ptr inttoptr (i64 1 to ptr), ptr %y, i32 %n, ptr @ompi_mpi_double, ptr @ompi_mpi_op_sum, ptr @ompi_mpi_comm_world)
  %e4 = call i32 @MPI_Waitall(i32 2, ptr %reqs, ptr null)
  %sum = add i32 %e2, %e3
  %e5 = call i32 @MPI_Finalize()
  ret double %t0
}

; CHECK-LABEL: llvm.func @f(
; CHECK-SAME:      %argv: !llvm.ptr, %[[X:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[REQS:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[PEER:[^:]+]]: i32)
; CHECK-DAG:     %[[COMM:.*]] = llvm.mlir.addressof @ompi_mpi_comm_world : !llvm.ptr
; CHECK-DAG:     %[[DT:.*]] = llvm.mlir.addressof @ompi_mpi_double : !llvm.ptr
; CHECK-DAG:     %[[SUM:.*]] = llvm.mlir.addressof @ompi_mpi_op_sum : !llvm.ptr
; CHECK-DAG:     %[[INPLACE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
; CHECK-DAG:     %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
; CHECK:         %{{.*}} = ompi.call @MPI_Init(%argc, %argv) : (!llvm.ptr, !llvm.ptr) -> i32
; CHECK-NEXT:    %{{.*}} = ompi.call @MPI_Comm_rank(%[[COMM]], %rank) : (!llvm.ptr, !llvm.ptr) -> i32
; CHECK-NEXT:    %[[T0:.*]] = ompi.call @MPI_Wtime() : () -> f64
; CHECK-NEXT:    %[[E2:.*]] = ompi.sendrecv %[[X]], %[[N]], %[[DT]], %[[PEER]], %{{.*}}, %[[Y]], %[[N]], %[[DT]], %[[PEER]], %{{.*}}, %[[COMM]], %[[NULL]]
; CHECK-NEXT:    %[[E3:.*]] = ompi.allreduce %[[INPLACE]], %[[Y]], %[[N]], %[[DT]], %[[SUM]], %[[COMM]]
; CHECK-NEXT:    %{{.*}} = ompi.waitall %{{.*}}, %[[REQS]], %[[NULL]]
; CHECK-NEXT:    %{{.*}} = llvm.add %[[E2]], %[[E3]] : i32
; CHECK-NEXT:    %{{.*}} = ompi.call @MPI_Finalize() : () -> i32
; CHECK-NEXT:    llvm.return %[[T0]] : f64

; BACK-LABEL: define double @f(
; BACK:         call i32 @MPI_Init(ptr %argc, ptr %argv)
; BACK-NEXT:    call i32 @MPI_Comm_rank(ptr @ompi_mpi_comm_world, ptr %rank)
; BACK-NEXT:    %t0 = call double @MPI_Wtime()
; BACK-NEXT:    %e2 = call i32 @MPI_Sendrecv(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 1, ptr %y, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 2, ptr @ompi_mpi_comm_world, ptr null)
; BACK-NEXT:    %e3 = call i32 @MPI_Allreduce(ptr inttoptr (i64 1 to ptr), ptr %y, i32 %n, ptr @ompi_mpi_double, ptr @ompi_mpi_op_sum, ptr @ompi_mpi_comm_world)
; BACK-NEXT:    call i32 @MPI_Waitall(i32 2, ptr %reqs, ptr null)
; BACK-NEXT:    %sum = add i32 %e2, %e3
; BACK-NEXT:    call i32 @MPI_Finalize()
; BACK-NEXT:    ret double %t0
; BACK-NOT:   define {{.*}}@xenzyme.mpi
