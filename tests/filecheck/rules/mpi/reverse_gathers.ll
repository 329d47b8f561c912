; RUN: xenzyme-opt %s -p raise-enzyme-calls,raise-mpi,reverse-diff | filecheck %s

; Reverse mode of the collectives that move parts of buffers: a gather's adjoint is a scatter of
; the root's adjoints (which the root then clears), a scatter's a gather to the root's d(x), an
; allgather's a reduce_scatter_block of the adjoints, a reduce_scatter_block's (of a sum) an
; allgather, an alltoall's an alltoall.  With MPI_IN_PLACE the rank's own part stays in d(y): the
; counts of the accumulations are chosen at run time from whether the buffer is MPI_IN_PLACE.

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
%struct.ompi_predefined_op_t = type opaque
@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t
@ompi_mpi_op_sum = external global %struct.ompi_predefined_op_t

declare i32 @MPI_Gather(ptr, i32, ptr, ptr, i32, ptr, i32, ptr)
declare i32 @MPI_Scatter(ptr, i32, ptr, ptr, i32, ptr, i32, ptr)
declare i32 @MPI_Allgather(ptr, i32, ptr, ptr, i32, ptr, ptr)
declare i32 @MPI_Alltoall(ptr, i32, ptr, ptr, i32, ptr, ptr)
declare i32 @MPI_Reduce_scatter_block(ptr, ptr, i32, ptr, ptr, ptr)
declare void @__enzyme_autodiff(...)

define double @gather(ptr %x, ptr %y, i32 %k) {
  %e = call i32 @MPI_Gather(ptr %x, i32 %k, ptr @ompi_mpi_double, ptr %y, i32 %k, ptr @ompi_mpi_double, i32 0, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffegather(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[K:[^:]+]]: i32,
; CHECK:         ompi.gather %[[X]], %[[K]], %[[DT:[^,]+]], %[[Y]], %[[K]], %[[DT]], %[[ROOT:[^,]+]], %[[COMM:[^,]+]]{{$}}
; CHECK:         %[[SIZE:.*]] = ompi.size %[[COMM]]
; CHECK:         %[[MINE:.*]] = llvm.call @malloc(
; CHECK-NEXT:    ompi.scatter %[[DY]], %[[K]], %[[DT]], %[[MINE]], %{{[^,]+}}, %{{[^,]+}}, %[[ROOT]], %[[COMM]]{{$}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         ompi.accumulate %[[DX]], %[[MINE]], %{{.*}} : f64
; CHECK-NEXT:    ompi.accumulate %{{.*}}, %[[MINE]], %{{.*}} : f64
; CHECK-NEXT:    llvm.call @free(%[[MINE]])

define double @scatter(ptr %x, ptr %y, i32 %k) {
  %e = call i32 @MPI_Scatter(ptr %x, i32 %k, ptr @ompi_mpi_double, ptr %y, i32 %k, ptr @ompi_mpi_double, i32 0, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffescatter(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[K:[^:]+]]: i32,
; CHECK:         ompi.scatter %[[X]], %[[K]], %[[DT:[^,]+]], %[[Y]], %[[K]], %[[DT]], %[[ROOT:[^,]+]], %[[COMM:[^,]+]]{{$}}
; CHECK:         %[[ALL:.*]] = llvm.call @calloc(
; CHECK:         %[[SEND:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[DY]] : i1, !llvm.ptr
; CHECK-NEXT:    ompi.gather %[[SEND]], %[[K]], %[[DT]], %[[ALL]], %[[K]], %[[DT]], %[[ROOT]], %[[COMM]]{{$}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         ompi.accumulate %[[DX]], %[[ALL]], %{{.*}} : f64

define double @allgather(ptr %x, ptr %y, i32 %k) {
  %e = call i32 @MPI_Allgather(ptr %x, i32 %k, ptr @ompi_mpi_double, ptr %y, i32 %k, ptr @ompi_mpi_double, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffeallgather(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[K:[^:]+]]: i32,
; CHECK:         ompi.allgather %[[X]], %[[K]], %[[DT:[^,]+]], %[[Y]], %[[K]], %[[DT]], %[[COMM:[^,]+]]{{$}}
; CHECK:         %[[MINE:.*]] = llvm.call @malloc(
; CHECK:         ompi.reduce_scatter_block %[[DY]], %[[MINE]], %[[K]], %[[DT]], %{{[^,]+}}, %[[COMM]]{{$}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         ompi.accumulate %[[DX]], %[[MINE]], %{{.*}} : f64

define double @alltoall(ptr %x, ptr %y, i32 %k) {
  %e = call i32 @MPI_Alltoall(ptr %x, i32 %k, ptr @ompi_mpi_double, ptr %y, i32 %k, ptr @ompi_mpi_double, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @diffealltoall(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[K:[^:]+]]: i32,
; CHECK:         ompi.alltoall %[[X]], %[[K]], %[[DT:[^,]+]], %[[Y]], %[[K]], %[[DT]], %[[COMM:[^,]+]]{{$}}
; CHECK:         %[[BACK:.*]] = llvm.call @malloc(
; CHECK-NEXT:    ompi.alltoall %[[DY]], %[[K]], %[[DT]], %[[BACK]], %{{[^,]+}}, %{{[^,]+}}, %[[COMM]]{{$}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         ompi.accumulate %[[DX]], %[[BACK]], %{{.*}} : f64

define double @reduce_scatter(ptr %x, ptr %y, i32 %k) {
  %e = call i32 @MPI_Reduce_scatter_block(ptr %x, ptr %y, i32 %k, ptr @ompi_mpi_double, ptr @ompi_mpi_op_sum, ptr @ompi_mpi_comm_world)
  %v = load double, ptr %y
  ret double %v
}

; CHECK-LABEL: llvm.func internal @differeduce_scatter(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[K:[^:]+]]: i32,
; CHECK:         ompi.reduce_scatter_block %[[X]], %[[Y]], %[[K]], %[[DT:[^,]+]], %{{[^,]+}}, %[[COMM:[^,]+]]{{$}}
; CHECK:         %[[ALL:.*]] = llvm.call @malloc(
; CHECK-NEXT:    ompi.allgather %[[DY]], %[[K]], %[[DT]], %[[ALL]], %[[K]], %[[DT]], %[[COMM]]{{$}}
; CHECK:         llvm.intr.memset(%[[DY]],
; CHECK:         ompi.accumulate %[[DX]], %[[ALL]], %{{.*}} : f64

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %k) {
  call void (...) @__enzyme_autodiff(ptr @gather, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %k)
  call void (...) @__enzyme_autodiff(ptr @scatter, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %k)
  call void (...) @__enzyme_autodiff(ptr @allgather, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %k)
  call void (...) @__enzyme_autodiff(ptr @alltoall, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %k)
  call void (...) @__enzyme_autodiff(ptr @reduce_scatter, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %k)
  ret void
}
