; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Vector rules, as clang's vectoriser emits them: lane insertion and extraction, shuffles, and
; the reductions.  Vector arithmetic uses the scalar rules lane by lane.  The adjoints of vector
; results are SSA values like those of scalars: the contributions to a vector used several times
; are added with vector fadds; only the arguments have adjoint slots.

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
; CHECK-SAME:      %{{[^:]+}}: f64, %{{[^:]+}}: f64, %[[SEED:[^:]+]]: f64)
; CHECK-DAG:     %[[DY:d_y[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[V0:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%[[ZERO:.*]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[V1:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%[[ONE:.*]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[W:.*]] = llvm.shufflevector %[[V1]], %{{.*}} [1, 0] : vector<2xf64>
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[V1]], %[[W]] : vector<2xf64>
; CHECK:         llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:

; extractelement: the adjoint goes into lane 1 of a zero vector.
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf64>) : vector<2xf64>
; CHECK-NEXT:    %[[DP:.*]] = llvm.insertelement %[[SEED]], %[[Z]][%[[ONE]] : i32] : vector<2xf64>

; fmul of vectors: the scalar rule on whole vectors.
; CHECK-NEXT:    %[[M1:.*]] = llvm.fmul %[[DP]], %[[W]] : vector<2xf64>
; CHECK-NEXT:    %[[DW:.*]] = llvm.fmul %[[DP]], %[[V1]] : vector<2xf64>

; shufflevector <1, 0>: output lane 0 came from input lane 1 and lane 1 from lane 0, each added
; into a zero vector.
; CHECK-NEXT:    %[[Z2:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf64>) : vector<2xf64>
; CHECK-NEXT:    %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK-NEXT:    %[[O0:.*]] = llvm.mlir.constant(0 : i32) : i32
; CHECK-NEXT:    %[[A1:.*]] = llvm.extractelement %[[Z2]][%[[I1]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[B0:.*]] = llvm.extractelement %[[DW]][%[[O0]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[S1:.*]] = llvm.fadd %[[A1]], %[[B0]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.insertelement %[[S1]], %[[Z2]][%[[I1]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
; CHECK-NEXT:    %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK-NEXT:    %[[A0:.*]] = llvm.extractelement %[[T1]][%[[I0]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[B1:.*]] = llvm.extractelement %[[DW]][%[[O1]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[S0:.*]] = llvm.fadd %[[A0]], %[[B1]] : f64
; CHECK-NEXT:    %[[T0:.*]] = llvm.insertelement %[[S0]], %[[T1]][%[[I0]] : i32] : vector<2xf64>

; %v1 is used by the fmul and the shufflevector: its adjoint is the sum of both.
; CHECK-NEXT:    %[[DV1:.*]] = llvm.fadd %[[M1]], %[[T0]] : vector<2xf64>

; insertelement: the lane goes to the scalar, the rest (lane zeroed) to the vector.
; CHECK-NEXT:    %[[LY:.*]] = llvm.extractelement %[[DV1]][%[[ONE]] : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DY]], %[[LY]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[DV0:.*]] = llvm.insertelement %[[Z0]], %[[DV1]][%[[ONE]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[LX:.*]] = llvm.extractelement %[[DV0]][%[[ZERO]] : i32] : vector<2xf64>
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
; CHECK-SAME:      %{{[^:]+}}: f64, %{{[^:]+}}: f64, %[[SEED:[^:]+]]: f64)
; CHECK-DAG:     %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DY:d_y[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[ONEF:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[V0:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%[[ZERO:.*]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[V:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%[[ONE:.*]] : i32] : vector<2xf64>
; CHECK:         %[[MX:.*]] = llvm.intr.vector.reduce.fmax(%[[V]]) : (vector<2xf64>) -> f64
; CHECK:         llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:

; r = (s + m) + mx: the seed is the adjoint of %mx, %m and %s.
; fmax: the adjoint goes to the lanes equal to the maximum.
; CHECK:         %[[MXS:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0] : vector<2xf64>
; CHECK-NEXT:    %[[HIT:.*]] = llvm.fcmp "oeq" %[[V]], %[[MXS]] : vector<2xf64>
; CHECK:         %[[DINS:.*]] = llvm.insertelement %[[SEED]], %{{.*}}[%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[DSPLAT:.*]] = llvm.shufflevector %[[DINS]], %[[DINS]] [0, 0] : vector<2xf64>
; CHECK-NEXT:    %[[ZV:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf64>) : vector<2xf64>
; CHECK-NEXT:    %[[SEL:.*]] = llvm.select %[[HIT]], %[[DSPLAT]], %[[ZV]] : vector<2xi1>, vector<2xf64>

; fmul with start 1.0: lane i gets d * start * (the other lanes); added to the adjoint of %v.
; CHECK:         %[[L0:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xf64>
; CHECK:         %[[L1:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xf64>
; CHECK:         %[[P0:.*]] = llvm.fmul %[[ONEF]], %[[L1]] : f64
; CHECK:         %[[D0:.*]] = llvm.fmul %[[SEED]], %[[P0]] : f64
; CHECK-NEXT:    %[[R0:.*]] = llvm.insertelement %[[D0]], %{{.*}}[%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[P1:.*]] = llvm.fmul %[[ONEF]], %[[L0]] : f64
; CHECK:         %[[D1:.*]] = llvm.fmul %[[SEED]], %[[P1]] : f64
; CHECK-NEXT:    %[[R1:.*]] = llvm.insertelement %[[D1]], %[[R0]][%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[DVM:.*]] = llvm.fadd %[[SEL]], %[[R1]] : vector<2xf64>

; fadd: the start value gets the adjoint, every lane too (a splat), added to the adjoint of %v.
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[SEED]] : !llvm.ptr, f64
; CHECK:         %[[SPL:.*]] = llvm.insertelement %[[SEED]], %{{.*}}[%{{.*}} : i32] : vector<2xf64>
; CHECK-NEXT:    %[[SPLAT:.*]] = llvm.shufflevector %[[SPL]], %[[SPL]] [0, 0] : vector<2xf64>
; CHECK-NEXT:    %[[DV:.*]] = llvm.fadd %[[DVM]], %[[SPLAT]] : vector<2xf64>

; The insertelements building %v: lane 1 to %y, lane 0 to %x.
; CHECK-NEXT:    %[[LY:.*]] = llvm.extractelement %[[DV]][%[[ONE]] : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DY]], %[[LY]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[DV0:.*]] = llvm.insertelement %[[Z0]], %[[DV]][%[[ONE]] : i32] : vector<2xf64>
; CHECK-NEXT:    %[[LX:.*]] = llvm.extractelement %[[DV0]][%[[ZERO]] : i32] : vector<2xf64>
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[LX]] : !llvm.ptr, f64

define void @g(double %x, double %y) {
  %1 = call { double, double } (...) @__enzyme_autodiff(ptr @lanes, double %x, double %y)
  %2 = call { double, double } (...) @__enzyme_autodiff(ptr @reductions, double %x, double %y)
  ret void
}
