; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; Vector mode: `enzyme_width, N` computes N directions at once in @fwddiffe<N><f>.  Each
; duplicated argument is followed by its N tangents (shadows for a pointer); each value has N
; tangents, one SSA value per direction; what the directions share (a partial derivative such as
; cos x) is computed once; the N tangents of the result are returned as a struct, which the
; request site stores through the C ABI's sret pointer when the caller gets it that way.  Values
; of LLVM vector and array types have tangents of the same type.

source_filename = "prog.c"

%struct.t3 = type { [3 x double] }

@enzyme_width = external global i32
@enzyme_dupnoneed = external global i32

declare { double, double } @__enzyme_fwddiff(...)
declare void @__enzyme_fwddiff_void(...)
declare [2 x double] @__enzyme_fwddiff_array(...)
declare void @__enzyme_fwddiff_sret(ptr, ptr, ...)
declare double @sin(double)
declare <2 x double> @llvm.fma.v2f64(<2 x double>, <2 x double>, <2 x double>)

define double @f(double %x, double %y) {
  %s = call double @sin(double %x)
  %m = fmul double %s, %y
  ret double %m
}

; CHECK-LABEL: llvm.func internal @fwddiffe2f(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX0:[^:]+]]: f64, %[[DX1:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[DY0:[^:]+]]: f64, %[[DY1:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK:         %[[S:.*]] = llvm.call @sin(%[[X]])
; CHECK-NEXT:    %[[COS:.*]] = llvm.intr.cos(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %[[DS0:.*]] = llvm.fmul %[[DX0]], %[[COS]] : f64
; CHECK-NEXT:    %[[DS1:.*]] = llvm.fmul %[[DX1]], %[[COS]] : f64
; CHECK-NOT:     llvm.intr.cos
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[S]], %[[Y]] : f64
; CHECK-NEXT:    %[[A0:.*]] = llvm.fmul %[[DS0]], %[[Y]] : f64
; CHECK-NEXT:    %[[B0:.*]] = llvm.fmul %[[DY0]], %[[S]] : f64
; CHECK-NEXT:    %[[DM0:.*]] = llvm.fadd %[[A0]], %[[B0]] : f64
; CHECK-NEXT:    %[[A1:.*]] = llvm.fmul %[[DS1]], %[[Y]] : f64
; CHECK-NEXT:    %[[B1:.*]] = llvm.fmul %[[DY1]], %[[S]] : f64
; CHECK-NEXT:    %[[DM1:.*]] = llvm.fadd %[[A1]], %[[B1]] : f64
; CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[R0:.*]] = llvm.insertvalue %[[DM0]], %[[U]][0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[DM1]], %[[R0]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[R1]] : !llvm.struct<(f64, f64)>

define void @sum(ptr %x, ptr %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %acc1 = fadd double %acc, %v
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  store double %acc1, ptr %y
  ret void
}

; The loop-carried sum has two tangent block arguments, zero on entry; the shadows of x are
; indexed like x.
; CHECK-LABEL: llvm.func internal @fwddiffe2sum(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX0:[^:]+]]: !llvm.ptr, %[[DX1:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY0:[^:]+]]: !llvm.ptr, %[[DY1:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i64)
; CHECK:         llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.br ^[[LOOP:bb[0-9]+]](%{{.*}}, %{{.*}}, %[[ZERO]], %[[ZERO]] : i64, f64, f64, f64)
; CHECK-NEXT:  ^[[LOOP]](%[[I:[^:]+]]: i64, %[[ACC:[^:]+]]: f64, %[[DACC0:[^:]+]]: f64, %[[DACC1:[^:]+]]: f64):
; CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[X]][%[[I]]]
; CHECK-NEXT:    %[[DP0:.*]] = llvm.getelementptr inbounds %[[DX0]][%[[I]]]
; CHECK-NEXT:    %[[DP1:.*]] = llvm.getelementptr inbounds %[[DX1]][%[[I]]]
; CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]]
; CHECK-NEXT:    %[[DV0:.*]] = llvm.load %[[DP0]]
; CHECK-NEXT:    %[[DV1:.*]] = llvm.load %[[DP1]]
; CHECK-NEXT:    %[[ACC1:.*]] = llvm.fadd %[[ACC]], %[[V]] : f64
; CHECK-NEXT:    %[[DA0:.*]] = llvm.fadd %[[DACC0]], %[[DV0]] : f64
; CHECK-NEXT:    %[[DA1:.*]] = llvm.fadd %[[DACC1]], %[[DV1]] : f64
; CHECK:         llvm.cond_br %{{.*}}, ^[[LOOP]](%{{.*}}, %[[ACC1]], %[[DA0]], %[[DA1]] : i64, f64, f64, f64), ^[[EXIT:bb[0-9]+]]
; CHECK-NEXT:  ^[[EXIT]]:
; CHECK-NEXT:    llvm.store %[[ACC1]], %[[Y]]
; CHECK-NEXT:    llvm.store %[[DA0]], %[[DY0]]
; CHECK-NEXT:    llvm.store %[[DA1]], %[[DY1]]
; CHECK-NEXT:    llvm.return

define void @vec(ptr %x, ptr %y) {
  %a = load <2 x double>, ptr %x
  %m = fmul <2 x double> %a, %a
  %e = extractelement <2 x double> %m, i64 1
  %s = shufflevector <2 x double> %m, <2 x double> %a, <2 x i32> <i32 1, i32 2>
  %f = call <2 x double> @llvm.fma.v2f64(<2 x double> %s, <2 x double> %a, <2 x double> %m)
  %i = insertelement <2 x double> %f, double %e, i64 0
  store <2 x double> %i, ptr %y
  ret void
}

; LLVM vector values, three directions: vector tangents, the element and shuffle ops applied to
; them, and fma(s, a, m)' = ds a + da s + dm.
; CHECK-LABEL: llvm.func internal @fwddiffe3vec(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX0:[^:]+]]: !llvm.ptr, %[[DX1:[^:]+]]: !llvm.ptr, %[[DX2:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr, %[[DY0:[^:]+]]: !llvm.ptr, %[[DY1:[^:]+]]: !llvm.ptr, %[[DY2:[^:]+]]: !llvm.ptr)
; CHECK:         %[[A:.*]] = llvm.load %[[X]] {{.*}} -> vector<2xf64>
; CHECK-NEXT:    %[[DA0:.*]] = llvm.load %[[DX0]] {{.*}} -> vector<2xf64>
; CHECK-NEXT:    %[[DA1:.*]] = llvm.load %[[DX1]] {{.*}} -> vector<2xf64>
; CHECK-NEXT:    %[[DA2:.*]] = llvm.load %[[DX2]] {{.*}} -> vector<2xf64>
; CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[A]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[P0:.*]] = llvm.fmul %[[DA0]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[Q0:.*]] = llvm.fmul %[[DA0]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[DM0:.*]] = llvm.fadd %[[P0]], %[[Q0]] : vector<2xf64>
; CHECK-NEXT:    %[[P1:.*]] = llvm.fmul %[[DA1]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[Q1:.*]] = llvm.fmul %[[DA1]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[DM1:.*]] = llvm.fadd %[[P1]], %[[Q1]] : vector<2xf64>
; CHECK-NEXT:    %[[P2:.*]] = llvm.fmul %[[DA2]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[Q2:.*]] = llvm.fmul %[[DA2]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[DM2:.*]] = llvm.fadd %[[P2]], %[[Q2]] : vector<2xf64>
; CHECK-NEXT:    %[[E:.*]] = llvm.extractelement %[[M]][%[[ONE:.*]] : i64] : vector<2xf64>
; CHECK-NEXT:    %[[DE0:.*]] = llvm.extractelement %[[DM0]][%[[ONE]] : i64] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.extractelement %[[DM1]][%[[ONE]] : i64] : vector<2xf64>
; CHECK-NEXT:    %[[DE2:.*]] = llvm.extractelement %[[DM2]][%[[ONE]] : i64] : vector<2xf64>
; CHECK-NEXT:    %[[S:.*]] = llvm.shufflevector %[[M]], %[[A]] [1, 2] : vector<2xf64>
; CHECK-NEXT:    %[[DS0:.*]] = llvm.shufflevector %[[DM0]], %[[DA0]] [1, 2] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.shufflevector %{{.*}}, %[[DA1]] [1, 2] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.shufflevector %[[DM2]], %[[DA2]] [1, 2] : vector<2xf64>
; CHECK-NEXT:    %[[F:.*]] = llvm.intr.fma(%[[S]], %[[A]], %[[M]])
; CHECK-NEXT:    %[[F1:.*]] = llvm.fmul %[[DS0]], %[[A]] : vector<2xf64>
; CHECK-NEXT:    %[[F2:.*]] = llvm.fmul %[[DA0]], %[[S]] : vector<2xf64>
; CHECK-NEXT:    %[[F3:.*]] = llvm.fadd %[[F1]], %[[F2]] : vector<2xf64>
; CHECK-NEXT:    %[[DF0:.*]] = llvm.fadd %[[F3]], %[[DM0]] : vector<2xf64>
; CHECK-COUNT-7: llvm.f{{mul|add}}
; CHECK-NEXT:    %[[DF2:.*]] = llvm.fadd %{{.*}}, %[[DM2]] : vector<2xf64>
; CHECK-NEXT:    %[[I:.*]] = llvm.insertelement %[[E]], %[[F]][%[[ZERO:.*]] : i64] : vector<2xf64>
; CHECK-NEXT:    %[[DI0:.*]] = llvm.insertelement %[[DE0]], %[[DF0]][%[[ZERO]] : i64] : vector<2xf64>
; CHECK-NEXT:    %[[DI1:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%[[ZERO]] : i64] : vector<2xf64>
; CHECK-NEXT:    %[[DI2:.*]] = llvm.insertelement %[[DE2]], %[[DF2]][%[[ZERO]] : i64] : vector<2xf64>
; CHECK-NEXT:    llvm.store %[[I]], %[[Y]] {{.*}} : vector<2xf64>, !llvm.ptr
; CHECK-NEXT:    llvm.store %[[DI0]], %[[DY0]] {{.*}} : vector<2xf64>, !llvm.ptr
; CHECK-NEXT:    llvm.store %[[DI1]], %[[DY1]] {{.*}} : vector<2xf64>, !llvm.ptr
; CHECK-NEXT:    llvm.store %[[DI2]], %[[DY2]] {{.*}} : vector<2xf64>, !llvm.ptr

define double @agg(double %x, double %y) {
  %a0 = insertvalue [2 x double] undef, double %x, 0
  %a1 = insertvalue [2 x double] %a0, double %y, 1
  %p = extractvalue [2 x double] %a1, 0
  %q = extractvalue [2 x double] %a1, 1
  %r = fmul double %p, %q
  ret double %r
}

; An array value's tangents are arrays, built from a zero array (the tangent of undef).
; CHECK-LABEL: llvm.func internal @fwddiffe2agg(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX0:[^:]+]]: f64, %[[DX1:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[DY0:[^:]+]]: f64, %[[DY1:[^:]+]]: f64)
; CHECK:         %{{.*}} = llvm.insertvalue %[[X]], %{{.*}}[0] : !llvm.array<2 x f64>
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.zero : !llvm.array<2 x f64>
; CHECK-NEXT:    %[[T0:.*]] = llvm.insertvalue %[[DX0]], %[[Z0]][0] : !llvm.array<2 x f64>
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.zero : !llvm.array<2 x f64>
; CHECK-NEXT:    %[[T1:.*]] = llvm.insertvalue %[[DX1]], %[[Z1]][0] : !llvm.array<2 x f64>
; CHECK-NEXT:    %{{.*}} = llvm.insertvalue %[[Y]], %{{.*}}[1] : !llvm.array<2 x f64>
; CHECK-NEXT:    %{{.*}} = llvm.insertvalue %[[DY0]], %[[T0]][1] : !llvm.array<2 x f64>
; CHECK-NEXT:    %{{.*}} = llvm.insertvalue %[[DY1]], %[[T1]][1] : !llvm.array<2 x f64>
; CHECK-COUNT-6: llvm.extractvalue
; CHECK-NEXT:    %{{.*}} = llvm.fmul
; CHECK-COUNT-2: llvm.fadd
; CHECK:         llvm.return %{{.*}} : !llvm.struct<(f64, f64)>

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define { double, double } @requests(double %x, double %y, ptr %x2, ptr %d1, ptr %d2, ptr %d3, ptr %y2, ptr %e1, ptr %e2, ptr %e3, i64 %n) {
  %r = call { double, double } (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_width, i64 2, double %x, double 1.0, double 0.0, double %y, double 0.0, double 1.0)
  call void (...) @__enzyme_fwddiff_void(ptr @sum, ptr @enzyme_width, i64 2, ptr %x2, ptr %d1, ptr %d2, ptr @enzyme_dupnoneed, ptr %y2, ptr %e1, ptr %e2, i64 %n)
  call void (...) @__enzyme_fwddiff_void(ptr @vec, ptr @enzyme_width, i64 3, ptr %x2, ptr %d1, ptr %d2, ptr %d3, ptr %y2, ptr %e1, ptr %e2, ptr %e3)
  %a = call [2 x double] (...) @__enzyme_fwddiff_array(ptr @agg, ptr @enzyme_width, i64 2, double %x, double 1.0, double 0.0, double %y, double 0.0, double 1.0)
  ret { double, double } %r
}

define void @request_sret(ptr sret(%struct.t3) %out, double %x) {
  call void (ptr, ptr, ...) @__enzyme_fwddiff_sret(ptr sret(%struct.t3) %out, ptr @sq, ptr @enzyme_width, i32 3, double %x, double 1.0, double 2.0, double 3.0)
  ret void
}

; CHECK-LABEL: llvm.func @requests(
; CHECK:         %[[R:.*]] = llvm.call @fwddiffe2f(%{{.*}}) : (f64, f64, f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK:         llvm.call @fwddiffe2sum(%{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
; CHECK:         llvm.call @fwddiffe3vec(%{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
; CHECK:         llvm.call @fwddiffe2agg(%{{.*}}) : (f64, f64, f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK:         llvm.return %[[R]] : !llvm.struct<(f64, f64)>

; Three tangents of a double returned through the caller's sret pointer, as C returns them.
; CHECK-LABEL: llvm.func @request_sret(
; CHECK-SAME:      %[[OUT:[^:]+]]: !llvm.ptr {llvm.sret
; CHECK:         %[[T3:.*]] = llvm.call @fwddiffe3sq(%{{.*}}) : (f64, f64, f64, f64) -> !llvm.struct<(f64, f64, f64)>
; CHECK-NEXT:    llvm.store %[[T3]], %[[OUT]] : !llvm.struct<(f64, f64, f64)>, !llvm.ptr
