; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Math functions, as libm calls (sin, sinf, pow, ...) and as intrinsics (llvm.sqrt, ...), one
; rule each.  A rule asks only for the primal values it needs: exp and sqrt reuse their result,
; sin and log their argument.  The result's adjoint is the seed itself (an SSA value), and the
; contributions go to the arguments' adjoint slots.  Math calls in the forward sweep are marked
; as not touching memory, so that LLVM can drop those nobody uses.

declare double @__enzyme_autodiff(...)
declare { double, double } @__enzyme_autodiff2(...)
declare { double, double, double } @__enzyme_autodiff3(...)
declare float @__enzyme_autodiff_f32(...)
declare double @sin(double)
declare float @sinf(float)
declare double @cos(double)
declare double @exp(double)
declare double @log(double)
declare double @pow(double, double)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fabs.f64(double)
declare double @llvm.maxnum.f64(double, double)
declare double @llvm.fma.f64(double, double, double)

define double @f_sin(double %x) {
  %r = call double @sin(double %x)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_sin(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[D:[^:]+]]: f64) -> f64
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %{{.*}} = llvm.call @sin(%[[X]]) {fn_attrs = ["nounwind", "willreturn", "memory(none)"]} : (f64) -> f64
; CHECK:         %[[C:.*]] = llvm.intr.cos(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[D]], %[[C]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[M]] : !llvm.ptr, f64

define float @f_sinf(float %x) {
  %r = call float @sinf(float %x)
  ret float %r
}

; CHECK-LABEL: llvm.func internal @diffef_sinf(
; CHECK-SAME:      %[[X:[^:]+]]: f32, %[[D:[^:]+]]: f32) -> f32
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f32
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[C:.*]] = llvm.intr.cos(%[[X]]) : (f32) -> f32
; CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[D]], %[[C]] : f32
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[M]] : !llvm.ptr, f32

define double @f_cos(double %x) {
  %r = call double @cos(double %x)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_cos(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[D:[^:]+]]: f64) -> f64
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[S:.*]] = llvm.intr.sin(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[D]], %[[S]] : f64
; CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[M]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[N]] : !llvm.ptr, f64

define double @f_exp(double %x) {
  %r = call double @exp(double %x)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_exp(
; CHECK-SAME:      %{{[^:]+}}: f64, %[[D:[^:]+]]: f64)
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[R:.*]] = llvm.call @exp(%{{.*}})
; CHECK:         %[[M:.*]] = llvm.fmul %[[D]], %[[R]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[M]] : !llvm.ptr, f64

define double @f_log(double %x) {
  %r = call double @log(double %x)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_log(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[D:[^:]+]]: f64) -> f64
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[Q:.*]] = llvm.fdiv %[[D]], %[[X]] : f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NZ:.*]] = llvm.fcmp "une" %[[D]], %[[Z]] : f64
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[G:.*]] = llvm.select %[[NZ]], %[[Q]], %[[Z1]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[G]] : !llvm.ptr, f64

define double @f_pow(double %x, double %y) {
  %r = call double @pow(double %x, double %y)
  ret double %r
}

; d/dx x^y = y x^(y-1);  d/dy x^y = x^y log x.
; CHECK-LABEL: llvm.func internal @diffef_pow(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[D:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK-DAG:     %[[SX:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[SY:d_y[_0-9]*]] = llvm.alloca
; CHECK:         %[[R:.*]] = llvm.call @pow(%[[X]], %[[Y]])
; CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[YM1:.*]] = llvm.fsub %[[Y]], %[[ONE]] : f64
; CHECK-NEXT:    %[[P:.*]] = llvm.intr.pow(%[[X]], %[[YM1]]) : (f64, f64) -> f64
; CHECK-NEXT:    %[[YP:.*]] = llvm.fmul %[[Y]], %[[P]] : f64
; CHECK-NEXT:    %[[DX:.*]] = llvm.fmul %[[D]], %[[YP]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[DX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[L:.*]] = llvm.intr.log(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %[[RL:.*]] = llvm.fmul %[[R]], %[[L]] : f64
; CHECK-NEXT:    %[[DY:.*]] = llvm.fmul %[[D]], %[[RL]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SY]], %[[DY]] : !llvm.ptr, f64

define double @f_sqrt(double %x) {
  %r = call double @llvm.sqrt.f64(double %x)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_sqrt(
; CHECK-SAME:      %{{[^:]+}}: f64, %[[D:[^:]+]]: f64)
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[R:.*]] = llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
; CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[R2:.*]] = llvm.fmul %[[R]], %[[TWO]] : f64
; CHECK-NEXT:    %[[Q:.*]] = llvm.fdiv %[[D]], %[[R2]] : f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NZ:.*]] = llvm.fcmp "une" %[[D]], %[[Z]] : f64
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[G:.*]] = llvm.select %[[NZ]], %[[Q]], %[[Z1]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[G]] : !llvm.ptr, f64

define double @f_fabs(double %x) {
  %r = call double @llvm.fabs.f64(double %x)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_fabs(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[D:[^:]+]]: f64) -> f64
; CHECK:         %[[SX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[NEG:.*]] = llvm.fcmp "olt" %[[X]], %{{.*}} : f64
; CHECK-NEXT:    %[[M1:.*]] = llvm.mlir.constant(-1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[P1:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[SGN:.*]] = llvm.select %[[NEG]], %[[M1]], %[[P1]] : i1, f64
; CHECK-NEXT:    %[[DX:.*]] = llvm.fmul %[[D]], %[[SGN]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[DX]] : !llvm.ptr, f64

define double @f_maxnum(double %x, double %y) {
  %r = call double @llvm.maxnum.f64(double %x, double %y)
  ret double %r
}

; The chosen argument gets the adjoint (the first one on ties), the other one nothing; both
; selects use one comparison.
; CHECK-LABEL: llvm.func internal @diffef_maxnum(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[D:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK-DAG:     %[[SX:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[SY:d_y[_0-9]*]] = llvm.alloca
; CHECK:         %[[GE:.*]] = llvm.fcmp "oge" %[[X]], %[[Y]] : f64
; CHECK:         %[[DX:.*]] = llvm.select %[[GE]], %[[D]], %{{.*}} : i1, f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[DX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[DY:.*]] = llvm.select %[[GE]], %[[Z]], %[[D]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %[[SY]], %[[DY]] : !llvm.ptr, f64

define double @f_fma(double %x, double %y, double %z) {
  %r = call double @llvm.fma.f64(double %x, double %y, double %z)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef_fma(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[Z:[^:]+]]: f64, %[[D:[^:]+]]: f64)
; CHECK-DAG:     %[[SX:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[SY:d_y[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[SZ:d_z[_0-9]*]] = llvm.alloca
; CHECK:         %{{.*}} = llvm.intr.fma(%[[X]], %[[Y]], %[[Z]]) : (f64, f64, f64) -> f64
; CHECK:         %[[DX:.*]] = llvm.fmul %[[D]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SX]], %[[DX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DY:.*]] = llvm.fmul %[[D]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[SY]], %[[DY]] : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %[[SZ]], %[[D]] : !llvm.ptr, f64

define void @g(double %x, double %y, float %a) {
  %1 = call double (...) @__enzyme_autodiff(ptr @f_sin, double %x)
  %2 = call float (...) @__enzyme_autodiff_f32(ptr @f_sinf, float %a)
  %3 = call double (...) @__enzyme_autodiff(ptr @f_cos, double %x)
  %4 = call double (...) @__enzyme_autodiff(ptr @f_exp, double %x)
  %5 = call double (...) @__enzyme_autodiff(ptr @f_log, double %x)
  %6 = call { double, double } (...) @__enzyme_autodiff2(ptr @f_pow, double %x, double %y)
  %7 = call double (...) @__enzyme_autodiff(ptr @f_sqrt, double %x)
  %8 = call double (...) @__enzyme_autodiff(ptr @f_fabs, double %x)
  %9 = call { double, double } (...) @__enzyme_autodiff2(ptr @f_maxnum, double %x, double %y)
  %10 = call { double, double, double } (...) @__enzyme_autodiff3(ptr @f_fma, double %x, double %y, double %x)
  ret void
}
