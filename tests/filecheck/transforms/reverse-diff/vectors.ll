; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Vector rules, as clang's vectoriser emits them: lane insertion and extraction, shuffles, and
; the reductions.  Vector arithmetic uses the scalar rules lane by lane.

declare { double, double } @__enzyme_autodiff(...)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)
declare double @llvm.vector.reduce.fmul.v2f64(double, <2 x double>)
declare double @llvm.vector.reduce.fmax.v2f64(<2 x double>)

define double @lanes(double %x, double %y) {
  %v0 = insertelement <2 x double> poison, double %x, i32 0
  %v1 = insertelement <2 x double> %v0, double %y, i32 1
  %w = shufflevector <2 x double> %v1, <2 x double> poison, <2 x i32> <i32 1, i32 0>
  %p = fmul <2 x double> %v1, %w
  %e = extractelement <2 x double> %p, i32 1
  ret double %e
}

; CHECK-LABEL: llvm.func internal @diffelanes(
; CHECK-DAG:     %[[DE:d_e[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DP:d_p[_0-9]*]] = llvm.alloca %{{.*}} x vector<2xf64>
; CHECK-DAG:     %[[DW:d_w[_0-9]*]] = llvm.alloca %{{.*}} x vector<2xf64>
; CHECK-DAG:     %[[DV1:d_v1[_0-9]*]] = llvm.alloca %{{.*}} x vector<2xf64>
; CHECK-DAG:     %[[DV0:d_v0[_0-9]*]] = llvm.alloca %{{.*}} x vector<2xf64>
; CHECK-DAG:     %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DY:d_y[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK:         %[[V0:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[V1:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%[[ONE:.*]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[W:.*]] = llvm.shufflevector %[[V1]], %{{.*}} [1, 0] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[V1]], %[[W]] : vector<2xf64>

; extractelement: the adjoint goes into lane 1 of a zero vector.
; CHECK:         %[[D:.*]] = llvm.load %[[DE]] : !llvm.ptr -> f64
; CHECK:         %[[Z:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf64>) : vector<2xf64>
; CHECK-NEXT:    %[[IN:.*]] = llvm.insertelement %[[D]], %[[Z]][%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DP]], %[[IN]] : !llvm.ptr, vector<2xf64>

; fmul of vectors: the scalar rule on whole vectors.
; CHECK:         %[[DPV:.*]] = llvm.load %[[DP]] : !llvm.ptr -> vector<2xf64>
; CHECK:         %[[M1:.*]] = llvm.fmul %[[DPV]], %[[W]] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DV1]], %[[M1]] : !llvm.ptr, vector<2xf64>
; CHECK-NEXT:    %[[M2:.*]] = llvm.fmul %[[DPV]], %[[V1]] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DW]], %[[M2]] : !llvm.ptr, vector<2xf64>

; shufflevector <1, 0>: output lane 0 came from input lane 1 and lane 1 from lane 0.
; CHECK:         %[[DWV:.*]] = llvm.load %[[DW]] : !llvm.ptr -> vector<2xf64>
; CHECK:         %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK-NEXT:    %[[O0:.*]] = llvm.mlir.constant(0 : i32) : i32
; CHECK-NEXT:    %{{.*}} = llvm.extractelement %{{.*}}[%[[I1]] : i32] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.extractelement %[[DWV]][%[[O0]] : i32] : vector<2xf64>
; CHECK:         %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
; CHECK-NEXT:    %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK-NEXT:    %{{.*}} = llvm.extractelement %{{.*}}[%[[I0]] : i32] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.extractelement %[[DWV]][%[[O1]] : i32] : vector<2xf64>
; CHECK:         autodiff.accumulate %[[DV1]], %{{.*}} : !llvm.ptr, vector<2xf64>

; insertelement: the lane goes to the scalar, the rest (lane zeroed) to the vector.
; CHECK:         %[[DV1V:.*]] = llvm.load %[[DV1]] : !llvm.ptr -> vector<2xf64>
; CHECK:         %[[LY:.*]] = llvm.extractelement %[[DV1V]][%[[ONE]] : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DY]], %[[LY]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[RST:.*]] = llvm.insertelement %[[Z0]], %[[DV1V]][%[[ONE]] : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DV0]], %[[RST]] : !llvm.ptr, vector<2xf64>
; CHECK:         %[[DV0V:.*]] = llvm.load %[[DV0]] : !llvm.ptr -> vector<2xf64>
; CHECK:         %[[LX:.*]] = llvm.extractelement %[[DV0V]][%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[LX]] : !llvm.ptr, f64

define double @reductions(double %x, double %y) {
  %v0 = insertelement <2 x double> poison, double %x, i32 0
  %v = insertelement <2 x double> %v0, double %y, i32 1
  %s = call double @llvm.vector.reduce.fadd.v2f64(double %x, <2 x double> %v)
  %m = call double @llvm.vector.reduce.fmul.v2f64(double 1.0, <2 x double> %v)
  %mx = call double @llvm.vector.reduce.fmax.v2f64(<2 x double> %v)
  %a = fadd double %s, %m
  %r = fadd double %a, %mx
  ret double %r
}

; CHECK-LABEL: llvm.func internal @differeductions(
; CHECK-DAG:     %[[DMX:d_mx[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DM:d_m[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DS:d_s[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DV:d_v[_0-9]*]] = llvm.alloca %{{.*}} x vector<2xf64>
; CHECK-DAG:     %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK:         %[[V0:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[V:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%{{.*}} : i32] : vector<2xf64>
; CHECK:         %[[MX:.*]] = llvm.intr.vector.reduce.fmax(%[[V]]) : (vector<2xf64>) -> f64

; fmax: the adjoint goes to the lanes equal to the maximum.
; CHECK:         %[[DMXV:.*]] = llvm.load %[[DMX]] : !llvm.ptr -> f64
; CHECK:         %[[MXS:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0] : vector<2xf64>
; CHECK-NEXT:    %[[HIT:.*]] = llvm.fcmp "oeq" %[[V]], %[[MXS]] : vector<2xf64>
; CHECK:         %[[DSPLAT:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0] : vector<2xf64>
; CHECK-NEXT:    %[[ZV:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf64>) : vector<2xf64>
; CHECK-NEXT:    %[[SEL:.*]] = llvm.select %[[HIT]], %[[DSPLAT]], %[[ZV]] : vector<2xi1>, vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DV]], %[[SEL]] : !llvm.ptr, vector<2xf64>

; fmul with start 1.0: lane i gets d * start * (the other lanes).
; CHECK:         %[[DMV:.*]] = llvm.load %[[DM]] : !llvm.ptr -> f64
; CHECK:         %[[L0:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xf64>
; CHECK:         %[[L1:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xf64>
; CHECK:         %[[P0:.*]] = llvm.fmul %{{.*}}, %[[L1]] : f64
; CHECK:         %{{.*}} = llvm.fmul %[[DMV]], %[[P0]] : f64
; CHECK:         %[[P1:.*]] = llvm.fmul %{{.*}}, %[[L0]] : f64
; CHECK:         %{{.*}} = llvm.fmul %[[DMV]], %[[P1]] : f64
; CHECK:         autodiff.accumulate %[[DV]], %{{.*}} : !llvm.ptr, vector<2xf64>

; fadd: the start value gets the adjoint, every lane too (a splat).
; CHECK:         %[[DSV:.*]] = llvm.load %[[DS]] : !llvm.ptr -> f64
; CHECK:         autodiff.accumulate %[[DX]], %[[DSV]] : !llvm.ptr, f64
; CHECK:         %[[SPL:.*]] = llvm.insertelement %[[DSV]], %{{.*}}[%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[SPLAT:.*]] = llvm.shufflevector %[[SPL]], %[[SPL]] [0, 0] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DV]], %[[SPLAT]] : !llvm.ptr, vector<2xf64>

define void @g(double %x, double %y) {
  %1 = call { double, double } (...) @__enzyme_autodiff(ptr @lanes, double %x, double %y)
  %2 = call { double, double } (...) @__enzyme_autodiff(ptr @reductions, double %x, double %y)
  ret void
}
