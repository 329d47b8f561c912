; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; Scalar tangent code.  Each __enzyme_fwddiff request becomes a call of a new internal function
; @fwddiffe<f> taking every duplicated argument followed by its tangent and returning the tangent
; of the result (dupnoneed, the default).  The primal runs as it is; the tangent of each value is
; computed right after it, by its op's rule, from the primal values and the operands' tangents.

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)
declare float @__enzyme_fwddiff_f32(...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  %d = fdiv double %m, %y
  %s = fsub double %d, %x
  %a = fadd double %s, 2.0
  ret double %a
}

; d(x y) = dx y + dy x;  d(m / y) = (dm - dy (m / y)) / y;  d(d - x) = dd - dx;  d(s + 2) = ds.
; CHECK-LABEL: llvm.func internal @fwddiffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[DY:[^:]+]]: f64) -> f64
; CHECK:         %[[M:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DX]], %[[Y]] : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DY]], %[[X]] : f64
; CHECK-NEXT:    %[[DM:.*]] = llvm.fadd %[[T1]], %[[T2]] : f64
; CHECK-NEXT:    %[[Q:.*]] = llvm.fdiv %[[M]], %[[Y]] : f64
; CHECK-NEXT:    %[[T3:.*]] = llvm.fmul %[[DY]], %[[Q]] : f64
; CHECK-NEXT:    %[[T4:.*]] = llvm.fsub %[[DM]], %[[T3]] : f64
; CHECK-NEXT:    %[[DQ:.*]] = llvm.fdiv %[[T4]], %[[Y]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.fsub %[[Q]], %[[X]] : f64
; CHECK-NEXT:    %[[DS:.*]] = llvm.fsub %[[DQ]], %[[DX]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.fadd %{{.*}}, %{{.*}} : f64
; CHECK-NEXT:    llvm.return %[[DS]] : f64

define float @casts(float %a, double %b) {
  %e = fpext float %a to double
  %m = fmul double %e, %b
  %t = fptrunc double %m to float
  %n = fneg float %t
  ret float %n
}

; Casts between float types apply to the tangents too; f32 in, f32 tangent out.
; CHECK-LABEL: llvm.func internal @fwddiffecasts(
; CHECK-SAME:      %[[A:[^:]+]]: f32, %[[DA:[^:]+]]: f32, %[[B:[^:]+]]: f64, %[[DB:[^:]+]]: f64) -> f32
; CHECK:         %[[E:.*]] = llvm.fpext %[[A]] : f32 to f64
; CHECK-NEXT:    %[[DE:.*]] = llvm.fpext %[[DA]] : f32 to f64
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[E]], %[[B]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DE]], %[[B]] : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DB]], %[[E]] : f64
; CHECK-NEXT:    %[[DM:.*]] = llvm.fadd %[[T1]], %[[T2]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.fptrunc %{{.*}} : f64 to f32
; CHECK-NEXT:    %[[DT:.*]] = llvm.fptrunc %[[DM]] : f64 to f32
; CHECK-NEXT:    %{{.*}} = llvm.fneg %{{.*}} : f32
; CHECK-NEXT:    %[[DN:.*]] = llvm.fneg %[[DT]] : f32
; CHECK-NEXT:    llvm.return %[[DN]] : f32

define double @sel(double %x, double %y) {
  %c = fcmp olt double %x, %y
  %s = select i1 %c, double %x, double %y
  %i = fptosi double %s to i32
  %f = sitofp i32 %i to double
  %r = fadd double %s, %f
  ret double %r
}

; select picks the tangent with the same condition; a value through an integer has none, so
; d(s + f) is ds, with no addition of a zero.
; CHECK-LABEL: llvm.func internal @fwddiffesel(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[DY:[^:]+]]: f64) -> f64
; CHECK:         %[[C:.*]] = llvm.fcmp "olt" %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.select %[[C]], %[[X]], %[[Y]] : i1, f64
; CHECK-NEXT:    %[[DS:.*]] = llvm.select %[[C]], %[[DX]], %[[DY]] : i1, f64
; CHECK-NOT:     llvm.fadd %[[DS]]
; CHECK:         llvm.return %[[DS]] : f64

define void @requests(double %x, double %y, float %a) {
  %1 = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, double %y, double 0.0)
  %2 = call float (...) @__enzyme_fwddiff_f32(ptr @casts, float %a, float 1.0, double %x, double 0.5)
  %3 = call double (...) @__enzyme_fwddiff(ptr @sel, double %x, double 1.0, double %y, double 2.0)
  ret void
}

; The requests became calls with the tangents passed through.
; CHECK-LABEL: llvm.func @requests(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[A:[^:]+]]: f32)
; CHECK-DAG:     %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK:         %{{.*}} = llvm.call @fwddiffef(%[[X]], %[[ONE]], %[[Y]], %[[ZERO]]) : (f64, f64, f64, f64) -> f64
; CHECK:         %{{.*}} = llvm.call @fwddiffecasts(%[[A]], %{{.*}}, %[[X]], %{{.*}}) : (f32, f32, f64, f64) -> f32
; CHECK:         %{{.*}} = llvm.call @fwddiffesel(
; CHECK-NOT:     autodiff.fwddiff
