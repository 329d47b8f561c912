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

; Every adjoint is checked for what it is: d_r = seed; d_xy = d_s = d_r; df/dx = d_s cos(x) +
; d_xy y and df/dy = d_xy x, returned in that order.  The adjoints of %r, %xy and %s are SSA
; values (the seed itself here); only the arguments' adjoints have stack slots.
; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK:         %d_x = llvm.alloca %{{.*}} x f64 : (i64) -> !llvm.ptr
; CHECK:         %d_y = llvm.alloca %{{.*}} x f64 : (i64) -> !llvm.ptr
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[XY:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.intr.sin(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %{{.*}} = llvm.fadd %[[XY]], %{{.*}} : f64
; CHECK-NEXT:    llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:
; CHECK-NEXT:    %[[COS:.*]] = llvm.intr.cos(%[[X]]) : (f64) -> f64
; CHECK-NEXT:    %[[DSX:.*]] = llvm.fmul %[[SEED]], %[[COS]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[DSX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DXYX:.*]] = llvm.fmul %[[SEED]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[DXYX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DXYY:.*]] = llvm.fmul %[[SEED]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[DXYY]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[GX:.*]] = llvm.load %d_x : !llvm.ptr -> f64
; CHECK:         %[[GY:.*]] = llvm.load %d_y : !llvm.ptr -> f64
; CHECK-NOT:     autodiff.cache
; CHECK:         %[[S0:.*]] = llvm.insertvalue %[[GX]], %{{.*}}[0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[GY]], %[[S0]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[S1]] : !llvm.struct<(f64, f64)>

; Accumulations into adjoint slots became load, fadd, store.
; LOWER-LABEL: llvm.func internal @diffef(
; LOWER-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64)
; LOWER-NOT:     autodiff.
; LOWER:         %[[COS:.*]] = llvm.intr.cos(%[[X]]) : (f64) -> f64
; LOWER-NEXT:    %[[DSX:.*]] = llvm.fmul %[[SEED]], %[[COS]] : f64
; LOWER-NEXT:    %[[OLDX:.*]] = llvm.load %d_x : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEWX:.*]] = llvm.fadd %[[OLDX]], %[[DSX]] : f64
; LOWER-NEXT:    llvm.store %[[NEWX]], %d_x : f64, !llvm.ptr
; LOWER-NEXT:    %[[DXYX:.*]] = llvm.fmul %[[SEED]], %[[Y]] : f64
; LOWER-NEXT:    %[[OLDX2:.*]] = llvm.load %d_x : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEWX2:.*]] = llvm.fadd %[[OLDX2]], %[[DXYX]] : f64
; LOWER-NEXT:    llvm.store %[[NEWX2]], %d_x : f64, !llvm.ptr
; LOWER-NEXT:    %[[DXYY:.*]] = llvm.fmul %[[SEED]], %[[X]] : f64
; LOWER-NEXT:    %[[OLDY:.*]] = llvm.load %d_y : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEWY:.*]] = llvm.fadd %[[OLDY]], %[[DXYY]] : f64
; LOWER-NEXT:    llvm.store %[[NEWY]], %d_y : f64, !llvm.ptr
; LOWER-NOT:     autodiff.
; LOWER:         llvm.return %{{.*}} : !llvm.struct<(f64, f64)>
; LOWER-NOT:     autodiff.

; Optimised: the gradient is inlined into its caller, its stack slots are gone, the primal's
; own result is not computed, and what is left is cos(x) + y for df/dx and x itself for df/dy.
; OPT-LABEL: define { double, double } @grad(double %x, double %y)
; OPT-NOT:     alloca
; OPT-NOT:     @llvm.sin
; OPT-NOT:     call {{.*}}@diffef
; OPT:         %[[COS:.*]] = tail call double @llvm.cos.f64(double %x)
; OPT:         %[[DX:.*]] = fadd double {{(%y, )?}}%[[COS]]{{(, %y)?$}}
; OPT:         %[[S0:.*]] = insertvalue { double, double } undef, double %[[DX]], 0
; OPT-NEXT:    %[[S1:.*]] = insertvalue { double, double } %[[S0]], double %x, 1
; OPT-NEXT:    ret { double, double } %[[S1]]
; OPT-NOT:     define internal {{.*}}@diffef
