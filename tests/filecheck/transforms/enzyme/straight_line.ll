; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s
; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff,lower-autodiff | filecheck %s --check-prefix=LOWER
; RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s --check-prefix=OPT

; A straight-line function at three depths: the gradient as reverse-diff builds it, after
; lower-autodiff, and after the whole pipeline.  f(x, y) = x * y + sin(x), so
; df/dx = y + cos(x) and df/dy = x.

declare { double, double } @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define double @f(double %x, double %y) {
  %xy = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %x)
  %r = fadd double %xy, %s
  ret double %r
}

define { double, double } @grad(double %x, double %y) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK:         %[[XY:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.intr.sin(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %{{.*}} = llvm.fadd %[[XY]], %{{.*}} : f64
; CHECK-NEXT:    llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:
; CHECK-NEXT:    autodiff.accumulate %d_r, %[[SEED]] : !llvm.ptr, f64
; CHECK:         autodiff.accumulate %d_xy, %[[DR:.*]] : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %d_s, %[[DR]] : !llvm.ptr, f64
; CHECK:         %[[COS:.*]] = llvm.intr.cos(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %[[DSX:.*]] = llvm.fmul %{{.*}}, %[[COS]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[DSX]] : !llvm.ptr, f64
; CHECK:         autodiff.accumulate %d_x, %{{.*}} : !llvm.ptr, f64
; CHECK:         autodiff.accumulate %d_y, %{{.*}} : !llvm.ptr, f64
; CHECK-NOT:     autodiff.cache
; CHECK:         llvm.return %{{.*}} : !llvm.struct<(f64, f64)>

; Accumulations into adjoint slots became load, fadd, store.
; LOWER-LABEL: llvm.func internal @diffef(
; LOWER-SAME:      %[[X:[^:]+]]: f64, %{{[^:]+}}: f64, %[[SEED:[^:]+]]: f64)
; LOWER-NOT:     autodiff.
; LOWER:         %[[OLD:.*]] = llvm.load %d_r : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEW:.*]] = llvm.fadd %[[OLD]], %[[SEED]] : f64
; LOWER-NEXT:    llvm.store %[[NEW]], %d_r : f64, !llvm.ptr
; LOWER:         %[[COS:.*]] = llvm.intr.cos(%[[X]]) : (f64) -> f64
; LOWER-NEXT:    %[[DSX:.*]] = llvm.fmul %{{.*}}, %[[COS]] : f64
; LOWER-NEXT:    %[[OLDX:.*]] = llvm.load %d_x : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEWX:.*]] = llvm.fadd %[[OLDX]], %[[DSX]] : f64
; LOWER-NEXT:    llvm.store %[[NEWX]], %d_x : f64, !llvm.ptr
; LOWER-NOT:     autodiff.
; LOWER:         llvm.return %{{.*}} : !llvm.struct<(f64, f64)>
; LOWER-NOT:     autodiff.

; Optimised: the gradient is inlined into its caller, its stack slots are gone, the primal's
; own result is not computed, and what is left is cos(x) and one addition for df/dx.
; OPT-LABEL: define { double, double } @grad(double %x, double %y)
; OPT-NOT:     alloca
; OPT-NOT:     @llvm.sin
; OPT-NOT:     call {{.*}}@diffef
; OPT:         %[[COS:.*]] = tail call double @llvm.cos.f64(double %x)
; OPT:         %[[DX:.*]] = fadd double {{(%y, .*|.*, %y)}}
; OPT:         %[[S0:.*]] = insertvalue { double, double } undef, double %[[DX]], 0
; OPT-NEXT:    %[[S1:.*]] = insertvalue { double, double } %[[S0]], double %{{.*}}, 1
; OPT-NEXT:    ret { double, double } %[[S1]]
; OPT-NOT:     define internal {{.*}}@diffef
