; The helper functions `lower-ompi` adds to a module for the `ompi` ops derivative rules emit
; (xenzyme/dialects/mpi.py).  OpenMPI's ABI: handles are pointers (MPI_INT is @ompi_mpi_int,
; MPI_IN_PLACE is (void *)1, MPI_STATUS_IGNORE is null), requests are `ptr` slots.
;
; A record of a non-blocking float message, kept in the shadow of its request slot:
;   0 kind (0: isend, 1: irecv)   1 started   2 what the slot held before   3 the buffer's shadow
;   4 count   5 element size   6 datatype   7 peer   8 tag   9 communicator
;   10 the reverse operation's request   11 its buffer (the adjoint received, or zeros sent)

%xenzyme.mpi.record = type { i32, i32, ptr, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr }

%ompi.opaque = type opaque
@ompi_mpi_int = external global %ompi.opaque
@ompi_mpi_op_max = external global %ompi.opaque
@ompi_mpi_op_min = external global %ompi.opaque

@xenzyme.mpi.tape = internal global ptr null
@xenzyme.mpi.tape.size = internal global i64 0
@xenzyme.mpi.tape.capacity = internal global i64 0

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i32 @MPI_Isend(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Irecv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Wait(ptr, ptr)
declare i32 @MPI_Allreduce(ptr, ptr, i32, ptr, ptr, ptr)
declare i32 @MPI_Comm_rank(ptr, ptr)
declare i32 @MPI_Comm_size(ptr, ptr)

; ---- MPI_Comm_rank and MPI_Comm_size as values -------------------------------------------------

define internal i32 @xenzyme.mpi.rank(ptr %comm) {
  %slot = alloca i32
  %e = call i32 @MPI_Comm_rank(ptr %comm, ptr %slot)
  %r = load i32, ptr %slot
  ret i32 %r
}

define internal i32 @xenzyme.mpi.size(ptr %comm) {
  %slot = alloca i32
  %e = call i32 @MPI_Comm_size(ptr %comm, ptr %slot)
  %n = load i32, ptr %slot
  ret i32 %n
}

; ---- records of non-blocking messages ---------------------------------------------------------

define internal void @xenzyme.mpi.record(ptr %dreq, i32 %kind, ptr %dbuf, i32 %count, i32 %elem, ptr %datatype,
                                         i32 %peer, i32 %tag, ptr %comm) {
  %r = call ptr @malloc(i64 72)
  %old = load ptr, ptr %dreq
  %f0 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 0
  store i32 %kind, ptr %f0
  %f1 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 1
  store i32 0, ptr %f1
  %f2 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 2
  store ptr %old, ptr %f2
  %f3 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 3
  store ptr %dbuf, ptr %f3
  %f4 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 4
  store i32 %count, ptr %f4
  %f5 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 5
  store i32 %elem, ptr %f5
  %f6 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 6
  store ptr %datatype, ptr %f6
  %f7 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 7
  store i32 %peer, ptr %f7
  %f8 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 8
  store i32 %tag, ptr %f8
  %f9 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 9
  store ptr %comm, ptr %f9
  %f11 = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 11
  store ptr null, ptr %f11
  store ptr %r, ptr %dreq
  ret void
}

; Start the reverse of the record in each of the %n slots at %dreqs that has one not started.
define internal void @xenzyme.mpi.start(ptr %dreqs, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %continue ]
  %slot = getelementptr ptr, ptr %dreqs, i32 %i
  %r = load ptr, ptr %slot
  %none = icmp eq ptr %r, null
  br i1 %none, label %continue, label %check
check:
  %pstarted = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 1
  %started = load i32, ptr %pstarted
  %fresh = icmp eq i32 %started, 0
  br i1 %fresh, label %go, label %continue
go:
  store i32 1, ptr %pstarted
  %pkind = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 0
  %kind = load i32, ptr %pkind
  %pdbuf = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 3
  %dbuf = load ptr, ptr %pdbuf
  %pcount = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 4
  %count = load i32, ptr %pcount
  %pelem = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 5
  %elem = load i32, ptr %pelem
  %pdt = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 6
  %dt = load ptr, ptr %pdt
  %ppeer = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 7
  %peer = load i32, ptr %ppeer
  %ptag = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 8
  %tag = load i32, ptr %ptag
  %pcomm = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 9
  %comm = load ptr, ptr %pcomm
  %preq = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 10
  %ptmp = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 11
  %count64 = sext i32 %count to i64
  %elem64 = sext i32 %elem to i64
  %bytes = mul i64 %count64, %elem64
  %isend = icmp eq i32 %kind, 0
  br i1 %isend, label %receive, label %send
receive:                                   ; the reverse of an isend: receive the adjoint
  %tmp = call ptr @malloc(i64 %bytes)
  store ptr %tmp, ptr %ptmp
  %e1 = call i32 @MPI_Irecv(ptr %tmp, i32 %count, ptr %dt, i32 %peer, i32 %tag, ptr %comm, ptr %preq)
  br label %continue
send:                                      ; the reverse of an irecv: send the adjoint back
  %noshadow = icmp eq ptr %dbuf, null
  br i1 %noshadow, label %zeros, label %sendit
zeros:
  %z = call ptr @calloc(i64 %bytes, i64 1)
  store ptr %z, ptr %ptmp
  br label %sendit
sendit:
  %src = phi ptr [ %dbuf, %send ], [ %z, %zeros ]
  %e2 = call i32 @MPI_Isend(ptr %src, i32 %count, ptr %dt, i32 %peer, i32 %tag, ptr %comm, ptr %preq)
  br label %continue
continue:
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; Finish the reverse of the record in %dreq: wait, move the adjoint, restore the slot.
define internal void @xenzyme.mpi.finish(ptr %dreq) {
entry:
  %r = load ptr, ptr %dreq
  %none = icmp eq ptr %r, null
  br i1 %none, label %done, label %have
have:
  call void @xenzyme.mpi.start(ptr %dreq, i32 1)
  %preq = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 10
  %e = call i32 @MPI_Wait(ptr %preq, ptr null)
  %pkind = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 0
  %kind = load i32, ptr %pkind
  %pdbuf = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 3
  %dbuf = load ptr, ptr %pdbuf
  %pcount = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 4
  %count = load i32, ptr %pcount
  %pelem = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 5
  %elem = load i32, ptr %pelem
  %ptmp = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 11
  %tmp = load ptr, ptr %ptmp
  %ppeer = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 7
  %peer = load i32, ptr %ppeer
  %noshadow = icmp eq ptr %dbuf, null
  %nopeer = icmp eq i32 %peer, -2                ; MPI_PROC_NULL: nothing moved either way
  %skip = or i1 %noshadow, %nopeer
  br i1 %skip, label %release, label %move
move:
  %isend = icmp eq i32 %kind, 0
  br i1 %isend, label %add, label %clear
add:
  %double = icmp eq i32 %elem, 8
  br i1 %double, label %add64, label %add32
add64:
  call void @xenzyme.mpi.add.f64(ptr %dbuf, ptr %tmp, i32 %count)
  br label %release
add32:
  call void @xenzyme.mpi.add.f32(ptr %dbuf, ptr %tmp, i32 %count)
  br label %release
clear:
  %count64 = sext i32 %count to i64
  %elem64 = sext i32 %elem to i64
  %bytes = mul i64 %count64, %elem64
  call void @llvm.memset.p0.i64(ptr %dbuf, i8 0, i64 %bytes, i1 false)
  br label %release
release:
  call void @free(ptr %tmp)
  %pold = getelementptr %xenzyme.mpi.record, ptr %r, i32 0, i32 2
  %old = load ptr, ptr %pold
  store ptr %old, ptr %dreq
  call void @free(ptr %r)
  br label %done
done:
  ret void
}

; ---- element-wise accumulation ----------------------------------------------------------------

define internal void @xenzyme.mpi.add.f64(ptr %dst, ptr %src, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %pd = getelementptr double, ptr %dst, i32 %i
  %ps = getelementptr double, ptr %src, i32 %i
  %d = load double, ptr %pd
  %s = load double, ptr %ps
  %sum = fadd double %d, %s
  store double %sum, ptr %pd
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

define internal void @xenzyme.mpi.add.f32(ptr %dst, ptr %src, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %pd = getelementptr float, ptr %dst, i32 %i
  %ps = getelementptr float, ptr %src, i32 %i
  %d = load float, ptr %pd
  %s = load float, ptr %ps
  %sum = fadd float %d, %s
  store float %sum, ptr %pd
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

define internal void @xenzyme.mpi.add_masked.f64(ptr %dst, ptr %src, i32 %n, ptr %mask) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %pm = getelementptr i8, ptr %mask, i32 %i
  %m = load i8, ptr %pm
  %owned = icmp ne i8 %m, 0
  %pd = getelementptr double, ptr %dst, i32 %i
  %ps = getelementptr double, ptr %src, i32 %i
  %d = load double, ptr %pd
  %s = load double, ptr %ps
  %sum = fadd double %d, %s
  %new = select i1 %owned, double %sum, double %d
  store double %new, ptr %pd
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

define internal void @xenzyme.mpi.add_masked.f32(ptr %dst, ptr %src, i32 %n, ptr %mask) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %pm = getelementptr i8, ptr %mask, i32 %i
  %m = load i8, ptr %pm
  %owned = icmp ne i8 %m, 0
  %pd = getelementptr float, ptr %dst, i32 %i
  %ps = getelementptr float, ptr %src, i32 %i
  %d = load float, ptr %pd
  %s = load float, ptr %ps
  %sum = fadd float %d, %s
  %new = select i1 %owned, float %sum, float %d
  store float %new, ptr %pd
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; ---- owners of the elements of a max/min reduction ---------------------------------------------
; The extremum y[k] over all ranks, then the lowest rank with x[k] == y[k] (an MPI_MIN of the
; candidates' ranks); 1 in the byte mask where that is this rank.

define internal ptr @xenzyme.mpi.owners(ptr %x, i32 %n, ptr %datatype, ptr %comm, ptr %op, i32 %elem) {
entry:
  %rankslot = alloca i32
  %e0 = call i32 @MPI_Comm_rank(ptr %comm, ptr %rankslot)
  %rank = load i32, ptr %rankslot
  %n64 = sext i32 %n to i64
  %elem64 = sext i32 %elem to i64
  %bytes = mul i64 %n64, %elem64
  %y = call ptr @malloc(i64 %bytes)
  %e1 = call i32 @MPI_Allreduce(ptr %x, ptr %y, i32 %n, ptr %datatype, ptr %op, ptr %comm)
  %cbytes = mul i64 %n64, 4
  %cand = call ptr @malloc(i64 %cbytes)
  %mask = call ptr @malloc(i64 %n64)
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %reduce
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %double = icmp eq i32 %elem, 8
  %px64 = getelementptr double, ptr %x, i32 %i
  %py64 = getelementptr double, ptr %y, i32 %i
  %x64 = load double, ptr %px64
  %y64 = load double, ptr %py64
  %eq64 = fcmp oeq double %x64, %y64
  %px32 = getelementptr float, ptr %x, i32 %i
  %py32 = getelementptr float, ptr %y, i32 %i
  %x32 = load float, ptr %px32
  %y32 = load float, ptr %py32
  %eq32 = fcmp oeq float %x32, %y32
  %eq = select i1 %double, i1 %eq64, i1 %eq32
  %c = select i1 %eq, i32 %rank, i32 2147483647
  %pc = getelementptr i32, ptr %cand, i32 %i
  store i32 %c, ptr %pc
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %reduce
reduce:
  %e2 = call i32 @MPI_Allreduce(ptr inttoptr (i64 1 to ptr), ptr %cand, i32 %n, ptr @ompi_mpi_int, ptr @ompi_mpi_op_min, ptr %comm)
  br i1 %any, label %mark, label %done
mark:
  %j = phi i32 [ 0, %reduce ], [ %jnext, %mark ]
  %pcj = getelementptr i32, ptr %cand, i32 %j
  %owner = load i32, ptr %pcj
  %mine = icmp eq i32 %owner, %rank
  %byte = zext i1 %mine to i8
  %pm = getelementptr i8, ptr %mask, i32 %j
  store i8 %byte, ptr %pm
  %jnext = add i32 %j, 1
  %jmore = icmp slt i32 %jnext, %n
  br i1 %jmore, label %mark, label %done
done:
  call void @free(ptr %y)
  call void @free(ptr %cand)
  ret ptr %mask
}

; ---- a last-in-first-out stack of pointers, from the forward to the reverse sweep --------------

define internal void @xenzyme.mpi.tape_push(ptr %p) {
entry:
  %size = load i64, ptr @xenzyme.mpi.tape.size
  %cap = load i64, ptr @xenzyme.mpi.tape.capacity
  %full = icmp eq i64 %size, %cap
  br i1 %full, label %grow, label %push
grow:
  %twice = shl i64 %cap, 1
  %small = icmp ult i64 %twice, 16
  %newcap = select i1 %small, i64 16, i64 %twice
  %old = load ptr, ptr @xenzyme.mpi.tape
  %bytes = mul i64 %newcap, 8
  %new = call ptr @realloc(ptr %old, i64 %bytes)
  store ptr %new, ptr @xenzyme.mpi.tape
  store i64 %newcap, ptr @xenzyme.mpi.tape.capacity
  br label %push
push:
  %tape = load ptr, ptr @xenzyme.mpi.tape
  %slot = getelementptr ptr, ptr %tape, i64 %size
  store ptr %p, ptr %slot
  %next = add i64 %size, 1
  store i64 %next, ptr @xenzyme.mpi.tape.size
  ret void
}

define internal ptr @xenzyme.mpi.tape_pop() {
  %size = load i64, ptr @xenzyme.mpi.tape.size
  %top = sub i64 %size, 1
  store i64 %top, ptr @xenzyme.mpi.tape.size
  %tape = load ptr, ptr @xenzyme.mpi.tape
  %slot = getelementptr ptr, ptr %tape, i64 %top
  %p = load ptr, ptr %slot
  ret ptr %p
}
