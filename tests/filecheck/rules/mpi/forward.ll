; RUN: xenzyme-opt %s -p raise-enzyme-calls,raise-mpi,forward-diff | filecheck %s

; Forward mode: tangents travel in a second message, the same call on the shadows.  A
; non-blocking call's tangent request is kept in the shadow of its request slot (for a message
; of integers, MPI_REQUEST_NULL, so that waiting for it does nothing); MPI_Test tests the
; tangent's request first and leaves in the flag whether both are done.  A sum's tangent is the
; sum of the tangents; a maximum's is the owner's tangent, summed with a mask.

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
%struct.ompi_predefined_op_t = type opaque
@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_int = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t
@ompi_mpi_op_sum = external global %struct.ompi_predefined_op_t
@ompi_mpi_op_max = external global %struct.ompi_predefined_op_t

declare i32 @MPI_Send(ptr, i32, ptr, i32, i32, ptr)
declare i32 @MPI_Recv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Isend(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Irecv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Waitall(i32, ptr, ptr)
declare i32 @MPI_Test(ptr, ptr, ptr)
declare i32 @MPI_Allreduce(ptr, ptr, i32, ptr, ptr, ptr)
declare double @__enzyme_fwddiff(...)

define double @p2p(ptr %x, ptr %y, i32 %n, i32 %peer) {
  %e1 = call i32 @MPI_Send(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 1, ptr @ompi_mpi_comm_world)
  %e2 = call i32 @MPI_Recv(ptr %y, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 1, ptr @ompi_mpi_comm_world, ptr null)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @fwddiffep2p(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[P:[^:]+]]: i32)
; CHECK:         ompi.send %[[X]], %[[N]], %[[DT:[^,]+]], %[[P]], %[[TAG:[^,]+]], %[[COMM:[^,]+]]{{$}}
; CHECK-NEXT:    ompi.send %[[DX]], %[[N]], %[[DT]], %[[P]], %[[TAG]], %[[COMM]]{{$}}
; CHECK-NEXT:    ompi.recv %[[Y]], %[[N]], %[[DT]], %[[P]], %[[TAG]], %[[COMM]], %{{.*}}
; CHECK-NEXT:    %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
; CHECK-NEXT:    ompi.recv %[[DY]], %[[N]], %[[DT]], %[[P]], %[[TAG]], %[[COMM]], %[[NULL]]
; CHECK-NEXT:    llvm.load %[[Y]]
; CHECK-NEXT:    llvm.load %[[DY]]

define double @nonblocking(ptr %x, ptr %y, ptr %k, i32 %peer) {
entry:
  %req = alloca [3 x ptr]
  %flag = alloca i32
  %r1 = getelementptr ptr, ptr %req, i64 1
  %r2 = getelementptr ptr, ptr %req, i64 2
  %e1 = call i32 @MPI_Irecv(ptr %y, i32 2, ptr @ompi_mpi_double, i32 %peer, i32 1, ptr @ompi_mpi_comm_world, ptr %req)
  %e2 = call i32 @MPI_Isend(ptr %x, i32 2, ptr @ompi_mpi_double, i32 %peer, i32 1, ptr @ompi_mpi_comm_world, ptr %r1)
  %e3 = call i32 @MPI_Isend(ptr %k, i32 1, ptr @ompi_mpi_int, i32 %peer, i32 2, ptr @ompi_mpi_comm_world, ptr %r2)
  %e4 = call i32 @MPI_Waitall(i32 2, ptr %r1, ptr null)
  br label %poll
poll:
  %e5 = call i32 @MPI_Test(ptr %req, ptr %flag, ptr null)
  %f = load i32, ptr %flag
  %done = icmp ne i32 %f, 0
  br i1 %done, label %exit, label %poll
exit:
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @fwddiffenonblocking(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[K:[^:]+]]: !llvm.ptr, %[[P:[^:]+]]: i32)
; CHECK:         %[[REQ:.*]] = llvm.alloca {{.*}} x !llvm.array<3 x !llvm.ptr>
; CHECK:         %[[DREQ:.*]] = llvm.alloca {{.*}} x !llvm.array<3 x !llvm.ptr>
; CHECK:         %[[FLAG:.*]] = llvm.alloca {{.*}} x i32
; CHECK:         %[[R1:.*]] = llvm.getelementptr %[[REQ]][1]
; CHECK-NEXT:    %[[DR1:.*]] = llvm.getelementptr %[[DREQ]][1]
; CHECK:         %[[R2:.*]] = llvm.getelementptr %[[REQ]][2]
; CHECK-NEXT:    %[[DR2:.*]] = llvm.getelementptr %[[DREQ]][2]
; CHECK:         ompi.irecv %[[Y]], {{.*}}, %[[REQ]]
; CHECK-NEXT:    ompi.irecv %[[DY]], {{.*}}, %[[DREQ]]
; CHECK-NEXT:    ompi.isend %[[X]], {{.*}}, %[[R1]]
; CHECK-NEXT:    ompi.isend %[[DX]], {{.*}}, %[[DR1]]
; CHECK-NEXT:    ompi.isend %[[K]], {{.*}}, %[[R2]]
; CHECK-NEXT:    %[[RNULL:.*]] = llvm.mlir.addressof @ompi_request_null : !llvm.ptr
; CHECK-NEXT:    llvm.store %[[RNULL]], %[[DR2]] : !llvm.ptr, !llvm.ptr
; CHECK-NEXT:    ompi.waitall %[[TWO:[^,]+]], %[[R1]], %{{.*}}
; CHECK-NEXT:    %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
; CHECK-NEXT:    ompi.waitall %[[TWO]], %[[DR1]], %[[NULL]]
; CHECK:         ompi.test %[[DREQ]], %[[FLAG]], %{{.*}}
; CHECK-NEXT:    %[[FT:.*]] = llvm.load %[[FLAG]] : !llvm.ptr -> i32
; CHECK-NEXT:    ompi.test %[[REQ]], %[[FLAG]], %{{.*}}
; CHECK-NEXT:    %[[FP:.*]] = llvm.load %[[FLAG]] : !llvm.ptr -> i32
; CHECK-NEXT:    %[[BOTH:.*]] = llvm.and %[[FT]], %[[FP]] : i32
; CHECK-NEXT:    llvm.store %[[BOTH]], %[[FLAG]] : i32, !llvm.ptr

define double @reductions(ptr %x, ptr %y, ptr %z) {
  %e1 = call i32 @MPI_Allreduce(ptr %x, ptr %y, i32 3, ptr @ompi_mpi_double, ptr @ompi_mpi_op_sum, ptr @ompi_mpi_comm_world)
  %e2 = call i32 @MPI_Allreduce(ptr %x, ptr %z, i32 3, ptr @ompi_mpi_double, ptr @ompi_mpi_op_max, ptr @ompi_mpi_comm_world)
  %a = load double, ptr %y
  %b = load double, ptr %z
  %m = fmul double %a, %b
  ret double %m
}

; CHECK-LABEL: llvm.func internal @fwddiffereductions(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[Z:[^:]+]]: !llvm.ptr, %[[DZ:[^:]+]]: !llvm.ptr)
; CHECK:         ompi.allreduce %[[X]], %[[Y]], %[[N:[^,]+]], %[[DT:[^,]+]], %[[SUM:[^,]+]], %[[COMM:[^,]+]]{{$}}
; CHECK-NEXT:    ompi.allreduce %[[DX]], %[[DY]], %[[N]], %[[DT]], %[[SUM]], %[[COMM]]{{$}}
; CHECK:         %[[M:.*]] = ompi.owners max %{{.*}}, %[[N]], %[[DT]], %[[COMM]] : f64
; CHECK-NEXT:    ompi.allreduce %[[X]], %[[Z]], %[[N]], %[[DT]], %{{[^,]+}}, %[[COMM]]{{$}}
; CHECK:         %[[MINE:.*]] = llvm.call @calloc(
; CHECK:         ompi.accumulate %[[MINE]], %{{.*}}, %[[N]] mask %[[M]] : f64
; CHECK-NEXT:    ompi.allreduce %[[MINE]], %[[DZ]], %[[N]], %[[DT]], %{{[^,]+}}, %[[COMM]]{{$}}
; CHECK-NEXT:    llvm.call @free(%[[M]])
; CHECK-NEXT:    llvm.call @free(%[[MINE]])

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %z, ptr %dz, ptr %k, i32 %n, i32 %p) {
  %a = call double (...) @__enzyme_fwddiff(ptr @p2p, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, i32 %p)
  %b = call double (...) @__enzyme_fwddiff(ptr @nonblocking, ptr %x, ptr %dx, ptr %y, ptr %dy, metadata !"enzyme_const", ptr %k, i32 %p)
  %c = call double (...) @__enzyme_fwddiff(ptr @reductions, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %z, ptr %dz)
  ret void
}
