; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Arithmetic rules.  Each request becomes a call of a new internal function @diffe<f> taking the
; primal arguments and the seed of the return value, and returning the derivatives of the active
; arguments.  The gradient repeats the primal computation (forward sweep), then visits it
; backwards: each result's adjoint is an SSA value (here the seed, or what a rule made of it),
; and contributions to the arguments are accumulated into their stack slots %d_<name>, which
; are read and cleared at the end.  (ssa_adjoints.ll: sums of several contributions, and
; adjoints that cross blocks.)

declare { double, double } @__enzyme_autodiff(...)
declare { float, float } @__enzyme_autodiff_f32(...)

define double @add(double %x, double %y) {
  %r = fadd double %x, %y
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffeadd(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK-DAG:     %[[DXSLOT:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[DYSLOT:d_y[_0-9]*]] = llvm.alloca
; CHECK-NOT:     llvm.alloca
; CHECK:         %{{.*}} = llvm.fadd %[[X]], %[[Y]] : f64
; CHECK-NEXT:    llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:
; CHECK-NEXT:    autodiff.accumulate %[[DXSLOT]], %[[SEED]] : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %[[DYSLOT]], %[[SEED]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DX:.*]] = llvm.load %[[DXSLOT]] : !llvm.ptr -> f64
; CHECK:         %[[DY:.*]] = llvm.load %[[DYSLOT]] : !llvm.ptr -> f64
; CHECK:         %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[S0:.*]] = llvm.insertvalue %[[DX]], %[[U]][0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[DY]], %[[S0]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[S1]] : !llvm.struct<(f64, f64)>

define double @sub(double %x, double %y) {
  %r = fsub double %x, %y
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffesub(
; CHECK-SAME:      %{{[^:]+}}: f64, %{{[^:]+}}: f64, %[[D:[^:]+]]: f64)
; CHECK-DAG:     %[[DXSLOT:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[DYSLOT:d_y[_0-9]*]] = llvm.alloca
; CHECK-NOT:     llvm.alloca
; CHECK:         autodiff.accumulate %[[DXSLOT]], %[[D]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[D]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DYSLOT]], %[[N]] : !llvm.ptr, f64

define double @mul(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffemul(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[D:[^:]+]]: f64)
; CHECK-DAG:     %[[DXSLOT:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[DYSLOT:d_y[_0-9]*]] = llvm.alloca
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[DX:.*]] = llvm.fmul %[[D]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DXSLOT]], %[[DX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DY:.*]] = llvm.fmul %[[D]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DYSLOT]], %[[DY]] : !llvm.ptr, f64

define double @div(double %x, double %y) {
  %r = fdiv double %x, %y
  ret double %r
}

; d(x/y) = d/y dx - (d/y)(x/y) dy, with x/y recomputed from the primal values; a zero adjoint
; contributes zero even where y = 0 (a guarded division the program did not use), not 0/0.
; CHECK-LABEL: llvm.func internal @diffediv(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[D:[^:]+]]: f64)
; CHECK-DAG:     %[[DXSLOT:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[DYSLOT:d_y[_0-9]*]] = llvm.alloca
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NZ:.*]] = llvm.fcmp "une" %[[D]], %[[Z]] : f64
; CHECK-NEXT:    %[[Q:.*]] = llvm.fdiv %[[D]], %[[Y]] : f64
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[QS:.*]] = llvm.select %[[NZ]], %[[Q]], %[[Z1]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %[[DXSLOT]], %[[QS]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[XY:.*]] = llvm.fdiv %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %[[P:.*]] = llvm.fmul %[[Q]], %[[XY]] : f64
; CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[P]] : f64
; CHECK-NEXT:    %[[Z2:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[NS:.*]] = llvm.select %[[NZ]], %[[N]], %[[Z2]] : i1, f64
; CHECK-NEXT:    autodiff.accumulate %[[DYSLOT]], %[[NS]] : !llvm.ptr, f64

define double @rem(double %x, double %y) {
  %r = frem double %x, %y
  ret double %r
}

; x - trunc(x/y) y: dx = d, dy = -d trunc(x/y).
; CHECK-LABEL: llvm.func internal @differem(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[D:[^:]+]]: f64)
; CHECK-DAG:     %[[DXSLOT:d_x[_0-9]*]] = llvm.alloca
; CHECK-DAG:     %[[DYSLOT:d_y[_0-9]*]] = llvm.alloca
; CHECK-NOT:     llvm.alloca
; CHECK:         autodiff.accumulate %[[DXSLOT]], %[[D]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[XY:.*]] = llvm.fdiv %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %[[T:.*]] = llvm.intr.trunc(%[[XY]]) : (f64) -> f64
; CHECK-NEXT:    %[[P:.*]] = llvm.fmul %[[D]], %[[T]] : f64
; CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[P]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DYSLOT]], %[[N]] : !llvm.ptr, f64

; f32, and a constant operand: no contribution; %y, unused, gets a zero derivative.
define float @neg(float %x, float %y) {
  %n = fneg float %x
  %r = fmul float %n, 3.0
  ret float %r
}

; CHECK-LABEL: llvm.func internal @diffeneg(
; CHECK-SAME:      %{{[^:]+}}: f32, %{{[^:]+}}: f32, %[[D:[^:]+]]: f32) -> !llvm.struct<(f32, f32)>
; CHECK:         %[[DXSLOT:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f32
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[THREE:.*]] = llvm.mlir.constant(3.000000e+00 : f32) : f32
; CHECK:         %[[DN:.*]] = llvm.fmul %[[D]], %[[THREE]] : f32
; CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[DN]] : f32
; CHECK-NEXT:    autodiff.accumulate %[[DXSLOT]], %[[N]] : !llvm.ptr, f32
; CHECK-NOT:     autodiff.accumulate
; CHECK:         %[[DXV:.*]] = llvm.load %[[DXSLOT]] : !llvm.ptr -> f32
; CHECK-NEXT:    %[[CLEAR:.*]] = llvm.mlir.constant(-0.000000e+00 : f32) : f32
; CHECK-NEXT:    llvm.store %[[CLEAR]], %[[DXSLOT]] : f32, !llvm.ptr
; CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
; CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
; CHECK-NEXT:    %[[S0:.*]] = llvm.insertvalue %[[DXV]], %[[U]][0] : !llvm.struct<(f32, f32)>
; CHECK-NEXT:    %{{.*}} = llvm.insertvalue %[[ZERO]], %[[S0]][1] : !llvm.struct<(f32, f32)>

define void @requests(double %x, double %y, float %a, float %b) {
  %1 = call { double, double } (...) @__enzyme_autodiff(ptr @add, double %x, double %y)
  %2 = call { double, double } (...) @__enzyme_autodiff(ptr @sub, double %x, double %y)
  %3 = call { double, double } (...) @__enzyme_autodiff(ptr @mul, double %x, double %y)
  %4 = call { double, double } (...) @__enzyme_autodiff(ptr @div, double %x, double %y)
  %5 = call { double, double } (...) @__enzyme_autodiff(ptr @rem, double %x, double %y)
  %6 = call { float, float } (...) @__enzyme_autodiff_f32(ptr @neg, float %a, float %b)
  ret void
}

; The requests became calls, with 1.0 as the seed.
; CHECK-LABEL: llvm.func @requests(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32) {
; CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %{{.*}} = llvm.call @diffeadd(%[[X]], %[[Y]], %[[ONE]]) : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK:         llvm.call @diffesub(
; CHECK:         llvm.call @diffemul(
; CHECK:         llvm.call @diffediv(
; CHECK:         llvm.call @differem(
; CHECK:         %[[ONEF:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
; CHECK-NEXT:    %{{.*}} = llvm.call @diffeneg(%[[A]], %[[B]], %[[ONEF]]) : (f32, f32, f32) -> !llvm.struct<(f32, f32)>
; CHECK-NOT:     autodiff.autodiff
