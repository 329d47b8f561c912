; RUN: xenzyme-opt %s -p raise-enzyme-calls,raise-mpi,reverse-diff | filecheck %s

; Reverse mode of reductions, broadcasts and barriers.  The adjoint of a sum-allreduce is a
; sum-allreduce of the adjoints (into a temporary, which goes to d(x), or with MPI_IN_PLACE to
; d(y)); of a sum-reduce, a broadcast of the root's adjoint; of a broadcast, a sum-reduce to the
; root (into zeros, so that the other ranks' shadows end at zero); of a barrier, a barrier.  A
; maximum's adjoint goes to the rank that held it: `ompi.owners` finds it before the call in the
; forward sweep, a tape keeps the mask for the reverse sweep, and the accumulation is masked.

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
%struct.ompi_predefined_op_t = type opaque
@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t
@ompi_mpi_op_sum = external global %struct.ompi_predefined_op_t
@ompi_mpi_op_max = external global %struct.ompi_predefined_op_t

declare i32 @MPI_Allreduce(ptr, ptr, i32, ptr, ptr, ptr)
declare i32 @MPI_Reduce(ptr, ptr, i32, ptr, ptr, i32, ptr)
declare i32 @MPI_Bcast(ptr, i32, ptr, i32, ptr)
declare i32 @MPI_Barrier(ptr)
declare void @__enzyme_autodiff(...)

define double @allreduce(ptr %x, ptr %y, i32 %n) {
  %e = call i32 @MPI_Allreduce(ptr %x, ptr %y, i32 %n, ptr @ompi_mpi_double, ptr @ompi_mpi_op_sum, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffeallreduce(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32,
; CHECK:         ompi.allreduce %[[X]], %[[Y]], %[[N]], %[[DT:[^,]+]], %[[SUM:[^,]+]], %[[COMM:[^,]+]]{{$}}
; CHECK:         autodiff.accumulate %[[DY]]
; CHECK:         %[[IP:.*]] = llvm.icmp "eq" %[[X]], %{{.*}} : !llvm.ptr
; CHECK:         %[[T:.*]] = llvm.call @malloc(
; CHECK:         ompi.allreduce %[[DY]], %[[T]], %[[N]], %[[DT]], %[[SUM2:[^,]+]], %[[COMM]]{{$}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         %[[CX:.*]] = llvm.select %[[IP]], %{{.*}}, %[[N]] : i1, i32
; CHECK-NEXT:    %[[CY:.*]] = llvm.select %[[IP]], %[[N]], %{{.*}} : i1, i32
; CHECK-NEXT:    ompi.accumulate %[[DX]], %[[T]], %[[CX]] : f64
; CHECK-NEXT:    ompi.accumulate %[[DY]], %[[T]], %[[CY]] : f64
; CHECK-NEXT:    llvm.call @free(%[[T]])

define double @allreduce_max(ptr %x, ptr %y, i32 %n) {
  %e = call i32 @MPI_Allreduce(ptr %x, ptr %y, i32 %n, ptr @ompi_mpi_double, ptr @ompi_mpi_op_max, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffeallreduce_max(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32,
; CHECK:         %[[SRC:.*]] = llvm.select %{{.*}}, %[[Y]], %[[X]] : i1, !llvm.ptr
; CHECK-NEXT:    %[[M:.*]] = ompi.owners max %[[SRC]], %[[N]], %[[DT:[^,]+]], %[[COMM:[^,]+]] : f64
; CHECK-NEXT:    ompi.tape_push %[[M]]
; CHECK-NEXT:    ompi.allreduce %[[X]], %[[Y]], %[[N]], %[[DT]], %{{.*}}, %[[COMM]]{{$}}
; CHECK:         %[[MR:.*]] = ompi.tape_pop
; CHECK:         ompi.allreduce %[[DY]], %[[T:[^,]+]], %[[N]], %[[DT]], %{{.*}}, %[[COMM]]{{$}}
; CHECK:         ompi.accumulate %[[DX]], %[[T]], %{{.*}} mask %[[MR]] : f64
; CHECK-NEXT:    ompi.accumulate %[[DY]], %[[T]], %{{.*}} mask %[[MR]] : f64
; CHECK:         llvm.call @free(%[[MR]])

define double @reduce(ptr %x, ptr %y, i32 %n, i32 %root) {
  %e = call i32 @MPI_Reduce(ptr %x, ptr %y, i32 %n, ptr @ompi_mpi_double, ptr @ompi_mpi_op_sum, i32 %root, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; The root's adjoint goes to every rank (a bcast of a copy, made on the root only); the root
; clears its shadow.
; CHECK-LABEL: llvm.func internal @differeduce(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32, %[[ROOT:[^:]+]]: i32,
; CHECK:         ompi.reduce %[[X]], %[[Y]], %[[N]], %[[DT:[^,]+]], %{{[^,]+}}, %[[ROOT]], %[[COMM:[^,]+]]{{$}}
; CHECK:         %[[T:.*]] = llvm.call @malloc(
; CHECK:         %[[RANK:.*]] = ompi.rank %[[COMM]]
; CHECK-NEXT:    %[[ISROOT:.*]] = llvm.icmp "eq" %[[RANK]], %[[ROOT]] : i32
; CHECK:         %[[NB:.*]] = llvm.select %[[ISROOT]], %{{.*}}, %{{.*}} : i1, i64
; CHECK-NEXT:    llvm.intr.memcpy(%[[T]], %[[DY]], %[[NB]])
; CHECK-NEXT:    ompi.bcast %[[T]], %[[N]], %[[DT]], %[[ROOT]], %[[COMM]]
; CHECK:         llvm.intr.memset(%[[DY]], %{{.*}}, %{{.*}})
; CHECK:         ompi.accumulate %[[DX]], %[[T]], %{{.*}} : f64

define double @bcast(ptr %x, i32 %n) {
  call i32 @MPI_Barrier(ptr @ompi_mpi_comm_world)
  %e = call i32 @MPI_Bcast(ptr %x, i32 %n, ptr @ompi_mpi_double, i32 0, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %x
  %w = fmul double %v, %v
  ret double %w
}

; CHECK-LABEL: llvm.func internal @diffebcast(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32,
; CHECK:         ompi.barrier %[[COMM:[^,]+]]{{$}}
; CHECK-NEXT:    ompi.bcast %[[X]], %[[N]], %[[DT:[^,]+]], %[[ROOT:[^,]+]], %[[COMM]]{{$}}
; CHECK:         %[[Z:.*]] = llvm.call @calloc(
; CHECK:         ompi.reduce %[[DX]], %[[Z]], %[[N]], %[[DT]], %{{[^,]+}}, %[[ROOT]], %[[COMM]]{{$}}
; CHECK-NEXT:    %{{.*}} = llvm.zext %[[N]] : i32 to i64
; CHECK:         llvm.intr.memcpy(%[[DX]], %[[Z]], %{{.*}})
; CHECK-NEXT:    llvm.call @free(%[[Z]])
; CHECK-NEXT:    ompi.barrier %[[COMM]]
; CHECK-NEXT:    llvm.return

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, i32 %r) {
  call void (...) @__enzyme_autodiff(ptr @allreduce, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  call void (...) @__enzyme_autodiff(ptr @allreduce_max, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  call void (...) @__enzyme_autodiff(ptr @reduce, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, i32 %r)
  call void (...) @__enzyme_autodiff(ptr @bcast, ptr %x, ptr %dx, i32 %n)
  ret void
}
