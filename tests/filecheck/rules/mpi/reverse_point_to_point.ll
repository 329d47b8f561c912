; RUN: xenzyme-opt %s -p raise-enzyme-calls,raise-mpi,reverse-diff | filecheck %s

; Reverse mode of blocking point-to-point calls (xenzyme/rules/mpi.py): the adjoint of a message
; travels the other way.  A send receives the adjoint into a temporary and adds it to the
; buffer's shadow; a receive sends its shadow back and clears it; a sendrecv is one sendrecv the
; other way; a sendrecv_replace sends the shadow back and receives the adjoint of what it sent.
; Nothing moves to or from MPI_PROC_NULL, so the counts of the accumulation and of the clearing
; are zero then.

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t

declare i32 @MPI_Send(ptr, i32, ptr, i32, i32, ptr)
declare i32 @MPI_Recv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Sendrecv(ptr, i32, ptr, i32, i32, ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Sendrecv_replace(ptr, i32, ptr, i32, i32, i32, i32, ptr, ptr)
declare void @__enzyme_autodiff(...)

define double @send(ptr %x, i32 %n, i32 %dest) {
  %e = call i32 @MPI_Send(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %dest, i32 7, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %x
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffesend(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[DEST:[^:]+]]: i32,
; CHECK:         %[[DT:.*]] = llvm.mlir.addressof @ompi_mpi_double
; CHECK:         %[[TAG:.*]] = llvm.mlir.constant(7 : i32) : i32
; CHECK:         %[[COMM:.*]] = llvm.mlir.addressof @ompi_mpi_comm_world
; CHECK:         ompi.send %[[X]], %[[N]], %[[DT]], %[[DEST]], %[[TAG]], %[[COMM]]
; CHECK:         autodiff.accumulate %[[DX]]
; CHECK:         %[[TMP:.*]] = llvm.call @malloc(
; CHECK:         %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
; CHECK-NEXT:    ompi.recv %[[TMP]], %[[N]], %[[DT]], %[[DEST]], %[[TAG]], %[[COMM]], %[[NULL]]
; CHECK-NEXT:    %[[PN:.*]] = llvm.mlir.constant(-2 : i32) : i32
; CHECK-NEXT:    %[[LIVE:.*]] = llvm.icmp "ne" %[[DEST]], %[[PN]] : i32
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
; CHECK-NEXT:    %[[CNT:.*]] = llvm.select %[[LIVE]], %[[N]], %[[Z]] : i1, i32
; CHECK-NEXT:    ompi.accumulate %[[DX]], %[[TMP]], %[[CNT]] : f64
; CHECK-NEXT:    llvm.call @free(%[[TMP]])

define double @recv(ptr %y, i32 %n, i32 %src) {
  %e = call i32 @MPI_Recv(ptr %y, i32 %n, ptr @ompi_mpi_double, i32 %src, i32 3, ptr @ompi_mpi_comm_world, ptr null)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @differecv(
; CHECK-SAME:      %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[SRC:[^:]+]]: i32,
; CHECK:         ompi.recv %[[Y]], %[[N]], %[[DT:[^,]+]], %[[SRC]], %[[TAG:[^,]+]], %[[COMM:[^,]+]], %{{.*}}
; CHECK:         autodiff.accumulate %[[DY]]
; CHECK-NEXT:    ompi.send %[[DY]], %[[N]], %[[DT]], %[[SRC]], %[[TAG]], %[[COMM]]
; CHECK:         %[[LIVE:.*]] = llvm.icmp "ne" %[[SRC]], %{{.*}} : i32
; CHECK:         %[[CNT:.*]] = llvm.select %[[LIVE]], %[[N]], %{{.*}} : i1, i32
; CHECK:         %[[BYTES:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
; CHECK:         llvm.intr.memset(%[[DY]], %{{.*}}, %[[BYTES]])
; CHECK-NOT:     ompi.
; CHECK:         llvm.return

define double @sendrecv(ptr %x, ptr %y, i32 %n, i32 %to, i32 %from) {
  %e = call i32 @MPI_Sendrecv(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %to, i32 1, ptr %y, i32 %n, ptr @ompi_mpi_double, i32 %from, i32 2, ptr @ompi_mpi_comm_world, ptr null)
  %a = load double, ptr %y
  %b = load double, ptr %x
  %m = fmul double %a, %b
  ret double %m
}

; The adjoint of y goes back to `from` with y's tag; that of x comes from `to` with x's tag.
; CHECK-LABEL: llvm.func internal @diffesendrecv(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[TO:[^:]+]]: i32, %[[FROM:[^:]+]]: i32,
; CHECK:         ompi.sendrecv %[[X]], %[[N]], %[[DT:[^,]+]], %[[TO]], %[[T1:[^,]+]], %[[Y]], %[[N]], %[[DT]], %[[FROM]], %[[T2:[^,]+]], %[[COMM:[^,]+]], %{{.*}}
; CHECK:         %[[TMP:.*]] = llvm.call @malloc(
; CHECK:         ompi.sendrecv %[[DY]], %[[N]], %[[DT]], %[[FROM]], %[[T2]], %[[TMP]], %[[N]], %[[DT]], %[[TO]], %[[T1]], %[[COMM]], %{{.*}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         ompi.accumulate %[[DX]], %[[TMP]], %{{.*}} : f64
; CHECK:         llvm.call @free(%[[TMP]])

define double @replace(ptr %x, i32 %n, i32 %to, i32 %from) {
  %e = call i32 @MPI_Sendrecv_replace(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 %to, i32 1, i32 %from, i32 2, ptr @ompi_mpi_comm_world, ptr null)
  %v = load double, ptr %x
  ret double %v
}

; The shadow goes back to `from`, the adjoint of what went to `to` comes back; the shadow is
; cleared (unless nothing was received) and the adjoint that came back added.
; CHECK-LABEL: llvm.func internal @differeplace(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[TO:[^:]+]]: i32, %[[FROM:[^:]+]]: i32,
; CHECK:         ompi.sendrecv_replace %[[X]], %[[N]], %[[DT:[^,]+]], %[[TO]], %[[T1:[^,]+]], %[[FROM]], %[[T2:[^,]+]], %[[COMM:[^,]+]], %{{.*}}
; CHECK:         %[[BACK:.*]] = llvm.call @malloc(
; CHECK:         ompi.sendrecv %[[DX]], %[[N]], %[[DT]], %[[FROM]], %[[T2]], %[[BACK]], %[[N]], %[[DT]], %[[TO]], %[[T1]], %[[COMM]], %{{.*}}
; CHECK:         llvm.intr.memset(%[[DX]],
; CHECK:         ompi.accumulate %[[DX]], %[[BACK]], %{{.*}} : f64

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, i32 %p, i32 %q) {
  call void (...) @__enzyme_autodiff(ptr @send, ptr %x, ptr %dx, i32 %n, i32 %p)
  call void (...) @__enzyme_autodiff(ptr @recv, ptr %y, ptr %dy, i32 %n, i32 %q)
  call void (...) @__enzyme_autodiff(ptr @sendrecv, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, i32 %p, i32 %q)
  call void (...) @__enzyme_autodiff(ptr @replace, ptr %x, ptr %dx, i32 %n, i32 %p, i32 %q)
  ret void
}
