; RUN: xenzyme-opt %s -p raise-enzyme-calls,raise-mpi,reverse-diff | filecheck %s

; Reverse mode of non-blocking calls.  The forward sweep keeps a record of each float message in
; the shadow of its request slot (ompi.request_record: the shadow of the buffer, count, datatype,
; peer, tag, communicator); the reverse of MPI_Wait / MPI_Waitall / MPI_Test starts the opposite
; operation from the records (ompi.request_start), and the reverse of the MPI_Isend / MPI_Irecv
; waits for it and moves the adjoint (ompi.request_finish).  The request slots, local to the
; function, get shadows although nothing active is stored in them.

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_int = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t

declare i32 @MPI_Isend(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Irecv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Waitall(i32, ptr, ptr)
declare i32 @MPI_Wait(ptr, ptr)
declare i32 @MPI_Test(ptr, ptr, ptr)
declare void @__enzyme_autodiff(...)

define double @ring(ptr %x, ptr %y, i32 %n, i32 %right, i32 %left) {
  %req = alloca [2 x ptr]
  %r1 = getelementptr ptr, ptr %req, i64 1
  %e1 = call i32 @MPI_Irecv(ptr %y, i32 %n, ptr @ompi_mpi_double, i32 %left, i32 5, ptr @ompi_mpi_comm_world, ptr %req)
  %e2 = call i32 @MPI_Isend(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %right, i32 5, ptr @ompi_mpi_comm_world, ptr %r1)
  %e3 = call i32 @MPI_Waitall(i32 2, ptr %req, ptr null)
  %a = load double, ptr %y
  %b = load double, ptr %x
  %m = fmul double %a, %b
  ret double %m
}

; CHECK-LABEL: llvm.func internal @differing(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[RIGHT:[^:]+]]: i32, %[[LEFT:[^:]+]]: i32,
; CHECK:         %[[REQ:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x !llvm.ptr>
; CHECK:         %[[DREQ:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x !llvm.ptr>
; CHECK:         llvm.intr.memset(%[[DREQ]],
; CHECK:         %[[R1:.*]] = llvm.getelementptr %[[REQ]][1]
; CHECK-NEXT:    %[[DR1:.*]] = llvm.getelementptr %[[DREQ]][1]
; CHECK:         ompi.irecv %[[Y]], %[[N]], %[[DT:[^,]+]], %[[LEFT]], %[[TAG:[^,]+]], %[[COMM:[^,]+]], %[[REQ]]
; CHECK-NEXT:    ompi.request_record irecv %[[DREQ]], %[[DY]], %[[N]], %[[DT]], %[[LEFT]], %[[TAG]], %[[COMM]] : f64
; CHECK-NEXT:    ompi.isend %[[X]], %[[N]], %[[DT]], %[[RIGHT]], %[[TAG]], %[[COMM]], %[[R1]]
; CHECK-NEXT:    ompi.request_record isend %[[DR1]], %[[DX]], %[[N]], %[[DT]], %[[RIGHT]], %[[TAG]], %[[COMM]] : f64
; CHECK-NEXT:    ompi.waitall %[[TWO:[^,]+]], %[[REQ]], %{{.*}}
; The reverse sweep: the loads' adjoints first, then the waitall, the isend, the irecv.
; CHECK:         autodiff.accumulate %[[DX]]
; CHECK:         autodiff.accumulate %[[DY]]
; CHECK-NEXT:    ompi.request_start %[[DREQ]], %[[TWO]]
; CHECK-NEXT:    ompi.request_finish %[[DR1]]
; CHECK-NEXT:    ompi.request_finish %[[DREQ]]
; CHECK-NEXT:    llvm.return

; A message of integers has no record and no reverse; a request waited for with MPI_Wait, one
; polled with MPI_Test in a loop.
define double @mixed(ptr %x, ptr %k, i32 %n, i32 %peer) {
entry:
  %ri = alloca ptr
  %rd = alloca ptr
  %flag = alloca i32
  %e1 = call i32 @MPI_Isend(ptr %k, i32 1, ptr @ompi_mpi_int, i32 %peer, i32 1, ptr @ompi_mpi_comm_world, ptr %ri)
  %e2 = call i32 @MPI_Irecv(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %peer, i32 2, ptr @ompi_mpi_comm_world, ptr %rd)
  %e3 = call i32 @MPI_Wait(ptr %ri, ptr null)
  br label %poll
poll:
  %e4 = call i32 @MPI_Test(ptr %rd, ptr %flag, ptr null)
  %f = load i32, ptr %flag
  %done = icmp ne i32 %f, 0
  br i1 %done, label %exit, label %poll
exit:
  %v = load double, ptr %x
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffemixed(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr,
; CHECK:         %[[RI:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
; CHECK-NEXT:    %[[RD:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
; CHECK-NEXT:    %[[DRD:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
; CHECK-NOT:     llvm.alloca %{{.*}} x !llvm.ptr
; CHECK:         ompi.isend
; CHECK-NOT:     ompi.request_record
; CHECK:         ompi.irecv %[[X]], {{.*}}, %[[RD]]
; CHECK-NEXT:    ompi.request_record irecv %[[DRD]], %[[DX]],
; CHECK-NEXT:    ompi.wait
; CHECK:         ompi.test %[[RD]]
; CHECK:         autodiff.accumulate %[[DX]]
; CHECK:         ompi.request_start %[[DRD]], %{{.*}}
; CHECK-NOT:     ompi.request_start
; CHECK:         ompi.request_finish %[[DRD]]
; CHECK-NOT:     ompi.
; CHECK:         llvm.return

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %k, i32 %n, i32 %p, i32 %q) {
  call void (...) @__enzyme_autodiff(ptr @ring, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, i32 %p, i32 %q)
  call void (...) @__enzyme_autodiff(ptr @mixed, ptr %x, ptr %dx, ptr %k, ptr %k, i32 %n, i32 %p)
  ret void
}
