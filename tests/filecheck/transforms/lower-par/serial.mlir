// RUN: xenzyme-opt %s -p 'lower-par{serial=true}' -t llvm | %llvm-verify | filecheck %s

// The serial lowering: plain single-thread code, no runtime call at all.  The region is a direct
// call (thread-id pointers to zeros), thread 0 of a team of 1, a static loop's share is its whole
// range with a stride past its end, a dynamic loop hands out the whole range once, reductions and
// atomic updates are plain read-modify-writes, and synchronisation vanishes.

llvm.mlir.global common @lock() {addr_space = 0 : i32} : !llvm.array<8 x i32> {
  %z = llvm.mlir.zero : !llvm.array<8 x i32>
  llvm.return %z : !llvm.array<8 x i32>
}

llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr, %p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c9 = llvm.mlir.constant(9 : i32) : i32
  %v = llvm.mlir.constant(2.0 : f64) : f64
  %lo = llvm.load %q : !llvm.ptr -> i32
  %hi = llvm.load %p : !llvm.ptr -> i32
  %lb, %ub, %st, %last = par.static_init static_chunked %lo to %hi step %c1 chunk %c1 : i32
  %s1 = llvm.add %lb, %ub : i32
  %s2 = llvm.add %s1, %st : i32
  %s0 = llvm.zext %last : i1 to i32
  %s3 = llvm.add %s2, %s0 : i32
  llvm.store %s3, %p : i32, !llvm.ptr
  par.static_fini
  par.dispatch_init dynamic %c0 to %c9 step %c1 chunk %c1 : i32
  llvm.br ^next
^next:
  %more, %lb2, %ub2, %st2, %last2 = par.dispatch_next : i32
  llvm.cond_br %more, ^chunk, ^end
^chunk:
  llvm.store %ub2, %p : i32, !llvm.ptr
  llvm.br ^next
^end:
  par.dispatch_fini
  %tid = par.thread_num : i32
  %nt = par.num_threads : i32
  %t = llvm.add %tid, %nt : i32
  llvm.store %t, %p : i32, !llvm.ptr
  "omp.barrier"() : () -> ()
  par.critical_begin @lock
  par.critical_end @lock
  %first = par.single_begin
  %m = par.master_begin
  %both = llvm.and %first, %m : i1
  llvm.cond_br %both, ^single, ^after
^single:
  par.single_end
  par.master_end
  llvm.br ^after
^after:
  par.atomic_update mul %p, %v monotonic : f64
  par.reduce max %p, %q count 3 : f64
  llvm.return
}

llvm.func @caller(%p: !llvm.ptr, %q: !llvm.ptr) {
  par.parallel @region(%p, %q) : (!llvm.ptr, !llvm.ptr)
  llvm.return
}

// CHECK-NOT:   __kmpc
// CHECK-NOT:   @omp_
// CHECK-LABEL: define internal void @region(
// The static share: lb..ub itself, stride ub - lb + 1 when the range is not empty, last.
// CHECK:         %[[LO:.*]] = load i32, ptr %q
// CHECK:         %[[HI:.*]] = load i32, ptr %p
// CHECK:         icmp sle i32 %[[LO]], %[[HI]]
// CHECK:         %[[NONEMPTY:.*]] = select i1 %{{.*}}, i1 %{{.*}}, i1 %{{.*}}
// CHECK:         %[[SPAN:.*]] = sub i32 %[[HI]], %[[LO]]
// CHECK:         %[[WHOLE:.*]] = add i32 %[[SPAN]], 1
// CHECK:         %[[STRIDE:.*]] = select i1 %[[NONEMPTY]], i32 %{{.*}}, i32 1
// CHECK:         %[[S1:.*]] = add i32 %[[LO]], %[[HI]]
// CHECK:         add i32 %[[S1]], %[[STRIDE]]
// CHECK:         zext i1 %[[NONEMPTY]] to i32
// The dynamic loop: a pending flag set by the init, taken by the first dispatch_next.
// CHECK:       next:
// CHECK-NEXT:    %[[P:.*]] = load i32, ptr %[[PENDING:[^ ,]*]]
// CHECK:         %[[MORE:.*]] = icmp ne i32 %[[P]], 0
// CHECK:         store i32 0, ptr %[[PENDING]]
// CHECK:         br i1 %[[MORE]], label %chunk, label %end
// CHECK:       end:
// CHECK-NEXT:    store i32 1, ptr %p
// CHECK-NEXT:    %both = and i1 true, true
// CHECK:       after:
// CHECK-NEXT:    %[[OLD:.*]] = load double, ptr %p
// CHECK-NEXT:    %[[NEW:.*]] = fmul double %[[OLD]], 2.000000e+00
// CHECK-NEXT:    store double %[[NEW]], ptr %p
// CHECK:         icmp ult i64 %{{.*}}, 3
// CHECK:         fcmp ogt double
// CHECK-LABEL: define void @caller(
// CHECK:         store i32 0, ptr %[[G:[^ ,]*]]
// CHECK:         store i32 0, ptr %[[B:[^ ,]*]]
// CHECK-NEXT:    call void @region(ptr %[[G]], ptr %[[B]], ptr %p, ptr %q)
// CHECK-NEXT:    ret void
