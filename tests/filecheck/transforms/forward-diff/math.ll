; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; libm functions and LLVM math intrinsics through their rules (xenzyme/rules/libm.py): the
; tangent is the partial derivative, built from the primal values, times the argument's tangent.
; The primal calls are marked pure (errno aside) so that LLVM may drop unused ones.

source_filename = "prog.c"

@enzyme_const = external global i32

declare double @__enzyme_fwddiff(...)
declare double @exp(double)
declare double @log(double)
declare double @pow(double, double)
declare double @tanh(double)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fabs.f64(double)

define double @chain(double %x, double %y) {
  %e = call double @exp(double %x)
  %l = call double @log(double %e)
  %p = call double @pow(double %l, double %y)
  %r = call double @llvm.sqrt.f64(double %p)
  ret double %r
}

; exp' = exp (the primal value), log' = 1/x, pow: y x^(y-1) dx + x^y log x dy, sqrt' = 1/(2 sqrt);
; a division by the argument maps a zero tangent to zero (never 0/0).
; CHECK-LABEL: llvm.func internal @fwddiffechain(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[DY:[^:]+]]: f64) -> f64
; CHECK:         %[[E:.*]] = llvm.call @exp(%[[X]]) {fn_attrs = ["nounwind", "willreturn", "memory(none)"]}
; CHECK-NEXT:    %[[DE:.*]] = llvm.fmul %[[DX]], %[[E]] : f64
; CHECK-NEXT:    %[[L:.*]] = llvm.call @log(%[[E]])
; CHECK-NEXT:    %[[Q:.*]] = llvm.fdiv %[[DE]], %[[E]] : f64
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NZ:.*]] = llvm.fcmp "une" %[[DE]], %[[Z0]] : f64
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[DL:.*]] = llvm.select %[[NZ]], %[[Q]], %[[Z1]] : i1, f64
; CHECK-NEXT:    %[[P:.*]] = llvm.call @pow(%[[L]], %[[Y]])
; CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[YM1:.*]] = llvm.fsub %[[Y]], %[[ONE]] : f64
; CHECK-NEXT:    %[[PM1:.*]] = llvm.intr.pow(%[[L]], %[[YM1]]) : (f64, f64) -> f64
; CHECK-NEXT:    %[[DPDL:.*]] = llvm.fmul %[[Y]], %[[PM1]] : f64
; CHECK-NEXT:    %[[LOGL:.*]] = llvm.intr.log(%[[L]]) : (f64) -> f64
; CHECK-NEXT:    %[[DPDY:.*]] = llvm.fmul %[[P]], %[[LOGL]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DL]], %[[DPDL]] : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DY]], %[[DPDY]] : f64
; CHECK-NEXT:    %[[DP:.*]] = llvm.fadd %[[T1]], %[[T2]] : f64
; CHECK-NEXT:    %[[R:.*]] = llvm.intr.sqrt(%[[P]]) : (f64) -> f64
; CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[R2:.*]] = llvm.fmul %[[R]], %[[TWO]] : f64
; CHECK-NEXT:    %[[Q2:.*]] = llvm.fdiv %[[DP]], %[[R2]] : f64
; CHECK-NEXT:    %[[Z2:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NZ2:.*]] = llvm.fcmp "une" %[[DP]], %[[Z2]] : f64
; CHECK-NEXT:    %[[Z3:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[DR:.*]] = llvm.select %[[NZ2]], %[[Q2]], %[[Z3]] : i1, f64
; CHECK-NEXT:    llvm.return %[[DR]] : f64

define double @const_exponent(double %x, double %y) {
  %p = call double @pow(double %x, double %y)
  %t = call double @tanh(double %p)
  %a = call double @llvm.fabs.f64(double %t)
  ret double %a
}

; A constant exponent contributes nothing: only y x^(y-1) dx.  tanh' = 1 - tanh²; fabs' is the
; sign of its argument, -1 below zero and 1 otherwise.
; CHECK-LABEL: llvm.func internal @fwddiffeconst_exponent(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[Y:[^:]+]]: f64) -> f64
; CHECK:         llvm.call @pow(%[[X]], %[[Y]])
; CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[YM1:.*]] = llvm.fsub %[[Y]], %[[ONE]] : f64
; CHECK-NEXT:    %[[PM1:.*]] = llvm.intr.pow(%[[X]], %[[YM1]]) : (f64, f64) -> f64
; CHECK-NEXT:    %[[DPDX:.*]] = llvm.fmul %[[Y]], %[[PM1]] : f64
; CHECK-NEXT:    %[[DP:.*]] = llvm.fmul %[[DX]], %[[DPDX]] : f64
; CHECK-NEXT:    %[[T:.*]] = llvm.call @tanh(%{{.*}})
; CHECK-NEXT:    %[[ONE2:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[T]], %[[T]] : f64
; CHECK-NEXT:    %[[DTDP:.*]] = llvm.fsub %[[ONE2]], %[[T2]] : f64
; CHECK-NEXT:    %[[DT:.*]] = llvm.fmul %[[DP]], %[[DTDP]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.intr.fabs(%[[T]]) : (f64) -> f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NEG:.*]] = llvm.fcmp "olt" %[[T]], %[[Z]] : f64
; CHECK-NEXT:    %[[M1:.*]] = llvm.mlir.constant(-1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[P1:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[SIGN:.*]] = llvm.select %[[NEG]], %[[M1]], %[[P1]] : i1, f64
; CHECK-NEXT:    %[[DA:.*]] = llvm.fmul %[[DT]], %[[SIGN]] : f64
; CHECK-NEXT:    llvm.return %[[DA]] : f64

define void @requests(double %x, double %y) {
  %1 = call double (...) @__enzyme_fwddiff(ptr @chain, double %x, double 1.0, double %y, double 1.0)
  %2 = call double (...) @__enzyme_fwddiff(ptr @const_exponent, double %x, double 1.0, ptr @enzyme_const, double %y)
  ret void
}
