; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; The masked memory intrinsics of vectorised code (clang -march=native: AVX2, AVX-512).  A masked
; load or gather also reads the tangents through the shadow pointer(s) under the same mask, the
; pass-through lanes taking the pass-through value's tangent; a masked store or scatter also
; writes the value's tangent into the shadow(s).  Vector GEPs apply to the shadows.

source_filename = "prog.c"

@enzyme_const = external global i32

declare void @__enzyme_fwddiff(...)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.scatter.v4f64.v4p0(<4 x double>, <4 x ptr>, i32, <4 x i1>)

define void @f(ptr %x, ptr %y, <4 x i64> %idx, <4 x i1> %m) {
  %a = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %x, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
  %ps = getelementptr double, ptr %x, <4 x i64> %idx
  %g = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ps, i32 8, <4 x i1> %m, <4 x double> %a)
  %s = fmul <4 x double> %a, %g
  call void @llvm.masked.store.v4f64.p0(<4 x double> %s, ptr %y, i32 8, <4 x i1> %m)
  %qs = getelementptr double, ptr %y, <4 x i64> %idx
  call void @llvm.masked.scatter.v4f64.v4p0(<4 x double> %g, <4 x ptr> %qs, i32 8, <4 x i1> %m)
  ret void
}

; CHECK-LABEL: llvm.func internal @fwddiffef(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY:[^:]+]]: !llvm.ptr, %[[IDX:[^:]+]]: vector<4xi64>, %[[M:[^:]+]]: vector<4xi1>)
; CHECK:         %[[A:.*]] = llvm.call_intrinsic "llvm.masked.load.v4f64.p0"(%[[X]], %[[M]], %{{.*}})
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<4xf64>) : vector<4xf64>
; CHECK-NEXT:    %[[DA:.*]] = llvm.call_intrinsic "llvm.masked.load.v4f64.p0"(%[[DX]], %[[M]], %[[Z]])
; CHECK-NEXT:    %[[PS:.*]] = llvm.getelementptr %[[X]][%[[IDX]]] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, f64
; CHECK-NEXT:    %[[DPS:.*]] = llvm.getelementptr %[[DX]][%[[IDX]]] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, f64
; CHECK-NEXT:    %[[G:.*]] = llvm.call_intrinsic "llvm.masked.gather.v4f64.v4p0"(%[[PS]], %[[M]], %[[A]])
; CHECK-NEXT:    %[[DG:.*]] = llvm.call_intrinsic "llvm.masked.gather.v4f64.v4p0"(%[[DPS]], %[[M]], %[[DA]])
; CHECK-NEXT:    %[[S:.*]] = llvm.fmul %[[A]], %[[G]] : vector<4xf64>
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DA]], %[[G]] : vector<4xf64>
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DG]], %[[A]] : vector<4xf64>
; CHECK-NEXT:    %[[DS:.*]] = llvm.fadd %[[T1]], %[[T2]] : vector<4xf64>
; CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.store.v4f64.p0"(%[[S]], %[[Y]], %[[M]])
; CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.store.v4f64.p0"(%[[DS]], %[[DY]], %[[M]])
; CHECK-NEXT:    %[[QS:.*]] = llvm.getelementptr %[[Y]][%[[IDX]]]
; CHECK-NEXT:    %[[DQS:.*]] = llvm.getelementptr %[[DY]][%[[IDX]]]
; CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.scatter.v4f64.v4p0"(%[[G]], %[[QS]], %[[M]])
; CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.scatter.v4f64.v4p0"(%[[DG]], %[[DQS]], %[[M]])
; CHECK-NEXT:    llvm.return

define <4 x double> @table(ptr %t, <4 x double> %v, <4 x i1> %m) {
  %r = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %t, i32 8, <4 x i1> %m, <4 x double> %v)
  ret <4 x double> %r
}

; A constant table: the loaded lanes have no tangent, the pass-through lanes keep v's.
; CHECK-LABEL: llvm.func internal @fwddiffetable(
; CHECK-SAME:      %[[T:[^:]+]]: !llvm.ptr, %[[V:[^:]+]]: vector<4xf64>, %[[DV:[^:]+]]: vector<4xf64>, %[[M:[^:]+]]: vector<4xi1>) -> vector<4xf64>
; CHECK:         llvm.call_intrinsic "llvm.masked.load.v4f64.p0"(%[[T]], %[[M]], %[[V]])
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<4xf64>) : vector<4xf64>
; CHECK-NEXT:    %[[DR:.*]] = llvm.select %[[M]], %[[Z]], %[[DV]] : vector<4xi1>, vector<4xf64>
; CHECK-NEXT:    llvm.return %[[DR]] : vector<4xf64>

define void @requests(ptr %x, ptr %dx, ptr %y, ptr %dy, <4 x i64> %idx, <4 x i1> %m, <4 x double> %v, <4 x double> %dv) {
  call void (...) @__enzyme_fwddiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, <4 x i64> %idx, <4 x i1> %m)
  %r = call <4 x double> (...) @__enzyme_fwddiff(ptr @table, ptr @enzyme_const, ptr %x, <4 x double> %v, <4 x double> %dv, <4 x i1> %m)
  ret void
}
