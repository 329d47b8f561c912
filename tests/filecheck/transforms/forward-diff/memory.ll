; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; Pointers and memory.  A duplicated pointer argument is followed by its shadow; a load through
; it also loads the tangent from the shadow, a store also stores the tangent into the shadow
; (overwriting it: forward mode does not accumulate), and a stored constant writes a zero
; tangent, so that no stale tangent is left behind.  GEPs apply to the shadows too.  Local
; stack slots and heap blocks get zeroed shadows of their own, freed with them.

source_filename = "prog.c"

@enzyme_dupnoneed = external global i32
@enzyme_const = external global i32

declare void @__enzyme_fwddiff(...)
declare ptr @malloc(i64)
declare void @free(ptr)

define void @scale(ptr %x, ptr %y, double %c) {
  %v = load double, ptr %x
  %w = fmul double %v, %c
  store double %w, ptr %y
  %p = getelementptr inbounds double, ptr %y, i64 1
  store double 1.0, ptr %p
  ret void
}

; CHECK-LABEL: llvm.func internal @fwddiffescale(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: f64) attributes
; CHECK:         %[[V:.*]] = llvm.load %[[X]] {{.*}} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[DV:.*]] = llvm.load %[[DX]] {{.*}} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[W:.*]] = llvm.fmul %[[V]], %[[C]] : f64
; CHECK-NEXT:    %[[DW:.*]] = llvm.fmul %[[DV]], %[[C]] : f64
; CHECK-NEXT:    llvm.store %[[W]], %[[Y]] {{.*}} : f64, !llvm.ptr
; CHECK-NEXT:    llvm.store %[[DW]], %[[DY]] {{.*}} : f64, !llvm.ptr
; CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[Y]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NEXT:    %[[DP:.*]] = llvm.getelementptr inbounds %[[DY]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[P]] {{.*}} : f64, !llvm.ptr
; CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[ZERO]], %[[DP]] {{.*}} : f64, !llvm.ptr
; CHECK-NEXT:    llvm.return

define void @temporaries(ptr %x, ptr %y) {
  %a = alloca double
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %a
  %h = call ptr @malloc(i64 8)
  %u = load double, ptr %a
  store double %u, ptr %h
  %z = load double, ptr %h
  store double %z, ptr %y
  call void @free(ptr %h)
  ret void
}

; CHECK-LABEL: llvm.func internal @fwddiffetemporaries(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr)
; CHECK:         %[[A:.*]] = llvm.alloca %{{.*}} x f64
; CHECK-NEXT:    %[[DA:d_a.*]] = llvm.alloca %{{.*}} x f64
; CHECK:         llvm.intr.memset(%[[DA]], %{{.*}}, %{{.*}}) : !llvm.ptr, i8, i64
; CHECK:         %[[V:.*]] = llvm.load %[[X]]
; CHECK-NEXT:    %[[DV:.*]] = llvm.load %[[DX]]
; CHECK-NEXT:    %[[S:.*]] = llvm.fmul %[[V]], %[[V]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DV]], %[[V]] : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DV]], %[[V]] : f64
; CHECK-NEXT:    %[[DS:.*]] = llvm.fadd %[[T1]], %[[T2]] : f64
; CHECK-NEXT:    llvm.store %[[S]], %[[A]]
; CHECK-NEXT:    llvm.store %[[DS]], %[[DA]]
; CHECK-NEXT:    %[[H:.*]] = llvm.call @malloc(%[[SIZE:.*]]) : (i64) -> !llvm.ptr
; CHECK-NEXT:    %[[DH:d_h.*]] = llvm.call @malloc(%[[SIZE]]) : (i64) -> !llvm.ptr
; CHECK-NEXT:    %[[Z8:.*]] = llvm.mlir.constant(0 : i8) : i8
; CHECK-NEXT:    llvm.intr.memset(%[[DH]], %[[Z8]], %[[SIZE]]) : !llvm.ptr, i8, i64
; CHECK-NEXT:    %[[U:.*]] = llvm.load %[[A]]
; CHECK-NEXT:    %[[DU:.*]] = llvm.load %[[DA]]
; CHECK-NEXT:    llvm.store %[[U]], %[[H]]
; CHECK-NEXT:    llvm.store %[[DU]], %[[DH]]
; CHECK-NEXT:    %[[ZV:.*]] = llvm.load %[[H]]
; CHECK-NEXT:    %[[DZ:.*]] = llvm.load %[[DH]]
; CHECK-NEXT:    llvm.store %[[ZV]], %[[Y]]
; CHECK-NEXT:    llvm.store %[[DZ]], %[[DY]]
; CHECK-NEXT:    llvm.call @free(%[[H]]) : (!llvm.ptr) -> ()
; CHECK-NEXT:    llvm.call @free(%[[DH]]) : (!llvm.ptr) -> ()
; CHECK-NEXT:    llvm.return

define void @reads_only(ptr %x, ptr %y) {
  %v = load double, ptr %x
  %w = fmul double %v, 3.0
  store double %w, ptr %y
  ret void
}

; A constant pointer (enzyme_const) has no shadow: what is loaded through it has no tangent,
; and the store into the duplicated output writes a zero tangent.
; CHECK-LABEL: llvm.func internal @fwddiffereads_only(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr)
; CHECK:         llvm.load %[[X]]
; CHECK-NOT:     llvm.load
; CHECK:         llvm.store %{{.*}}, %[[Y]]
; CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[ZERO]], %[[DY]]
; CHECK-NEXT:    llvm.return

define void @requests(ptr %x, ptr %dx, ptr %y, ptr %dy, double %c) {
  call void (...) @__enzyme_fwddiff(ptr @scale, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %y, ptr %dy, ptr @enzyme_const, double %c)
  call void (...) @__enzyme_fwddiff(ptr @temporaries, ptr %x, ptr %dx, ptr %y, ptr %dy)
  call void (...) @__enzyme_fwddiff(ptr @reads_only, ptr @enzyme_const, ptr %x, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: llvm.func @requests(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: f64)
; CHECK:         llvm.call @fwddiffescale(%[[X]], %[[DX]], %[[Y]], %[[DY]], %[[C]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, f64) -> ()
; CHECK-NEXT:    llvm.call @fwddiffetemporaries(%[[X]], %[[DX]], %[[Y]], %[[DY]])
; CHECK-NEXT:    llvm.call @fwddiffereads_only(%[[X]], %[[Y]], %[[DY]])
