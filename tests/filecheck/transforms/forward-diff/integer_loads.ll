; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; Floating-point data moved as integers.  A double read as an i64 (an atomic load, a union) and
; turned back into a double by a bitcast: the same load from the shadow gives its tangent's bits.
; Bytes copied by an integer load and store copy the shadow's bytes along (loaded beside the
; primal's, before anything can change them), through selects, freezes and phis too.

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)
declare void @__enzyme_fwddiff_void(...)

define double @atomic_read(ptr %p) {
  %q = getelementptr inbounds double, ptr %p, i64 1
  %x = load double, ptr %q
  %i = load atomic i64, ptr %p seq_cst, align 8
  %d = bitcast i64 %i to double
  %m = fmul double %d, %x
  ret double %m
}

; CHECK-LABEL: llvm.func internal @fwddiffeatomic_read(
; CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr) -> f64
; CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[DX:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[I:.*]] = llvm.load %[[P]] atomic seq_cst {{.*}} : !llvm.ptr -> i64
; CHECK-NEXT:    %[[DI:.*]] = llvm.load %[[DP]] atomic seq_cst {{.*}} : !llvm.ptr -> i64
; CHECK-NEXT:    %[[D:.*]] = llvm.bitcast %[[I]] : i64 to f64
; CHECK-NEXT:    %[[DD:.*]] = llvm.bitcast %[[DI]] : i64 to f64
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[D]], %[[X]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DD]], %[[X]] : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DX]], %[[D]] : f64
; CHECK-NEXT:    %[[DM:.*]] = llvm.fadd %[[T1]], %[[T2]] : f64
; CHECK-NEXT:    llvm.return %[[DM]] : f64

define void @copy(ptr %src, ptr %dst) {
  %i = load i64, ptr %src
  store i64 %i, ptr %dst
  ret void
}

; CHECK-LABEL: llvm.func internal @fwddiffecopy(
; CHECK-SAME:      %[[S:[^:]+]]: !llvm.ptr, %[[DS:[^:]+]]: !llvm.ptr, %[[D:[^:]+]]: !llvm.ptr, %[[DD:[^:]+]]: !llvm.ptr)
; CHECK:         %[[I:.*]] = llvm.load %[[S]] {{.*}} : !llvm.ptr -> i64
; CHECK-NEXT:    %[[DI:.*]] = llvm.load %[[DS]] {{.*}} : !llvm.ptr -> i64
; CHECK-NEXT:    llvm.store %[[I]], %[[D]] {{.*}} : i64, !llvm.ptr
; CHECK-NEXT:    llvm.store %[[DI]], %[[DD]] {{.*}} : i64, !llvm.ptr
; CHECK-NEXT:    llvm.return

define double @through_phi(ptr %p, ptr %q, i1 %c) {
entry:
  %a = load i64, ptr %p
  br i1 %c, label %t, label %j
t:
  %b = load i64, ptr %q
  br label %j
j:
  %m = phi i64 [ %a, %entry ], [ %b, %t ]
  %s = select i1 %c, i64 %m, i64 0
  %d = bitcast i64 %s to double
  %r = fmul double %d, 3.0
  ret double %r
}

; The phi gets a block argument for the shadow bits; select applies to them, with zero bits
; (a zero tangent) for the constant.
; CHECK-LABEL: llvm.func internal @fwddiffethrough_phi(
; CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr, %[[Q:[^:]+]]: !llvm.ptr, %[[DQ:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: i1) -> f64
; CHECK:         %[[A:.*]] = llvm.load %[[P]] {{.*}} -> i64
; CHECK-NEXT:    %[[DA:.*]] = llvm.load %[[DP]] {{.*}} -> i64
; CHECK-NEXT:    llvm.cond_br %[[C]], ^[[T:bb[0-9]+]], ^[[J:bb[0-9]+]](%[[A]], %[[DA]] : i64, i64)
; CHECK-NEXT:  ^[[T]]:
; CHECK-NEXT:    %[[B:.*]] = llvm.load %[[Q]] {{.*}} -> i64
; CHECK-NEXT:    %[[DB:.*]] = llvm.load %[[DQ]] {{.*}} -> i64
; CHECK-NEXT:    llvm.br ^[[J]](%[[B]], %[[DB]] : i64, i64)
; CHECK-NEXT:  ^[[J]](%[[M:[^:]+]]: i64, %[[DM:[^:]+]]: i64):
; CHECK-NEXT:    %[[S:.*]] = llvm.select %[[C]], %[[M]], %{{.*}} : i1, i64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0) : i64
; CHECK-NEXT:    %[[DS:.*]] = llvm.select %[[C]], %[[DM]], %[[Z]] : i1, i64
; CHECK-NEXT:    %{{.*}} = llvm.bitcast %[[S]] : i64 to f64
; CHECK-NEXT:    %[[DD:.*]] = llvm.bitcast %[[DS]] : i64 to f64
; CHECK-NEXT:    %{{.*}} = llvm.fmul %{{.*}}, %{{.*}} : f64
; CHECK-NEXT:    %[[DR:.*]] = llvm.fmul %[[DD]], %{{.*}} : f64
; CHECK-NEXT:    llvm.return %[[DR]] : f64

define void @requests(ptr %p, ptr %dp, ptr %q, ptr %dq, i1 %c) {
  %1 = call double (...) @__enzyme_fwddiff(ptr @atomic_read, ptr %p, ptr %dp)
  call void (...) @__enzyme_fwddiff_void(ptr @copy, ptr %p, ptr %dp, ptr %q, ptr %dq)
  %2 = call double (...) @__enzyme_fwddiff(ptr @through_phi, ptr %p, ptr %dp, ptr %q, ptr %dq, i1 %c)
  ret void
}
