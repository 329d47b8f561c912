; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s
; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff,lower-autodiff | filecheck %s --check-prefix=LOWER
; RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s --check-prefix=OPT

; A loop whose reverse needs a value from every iteration, at three depths: reverse-diff caches
; it, lower-autodiff turns the cache into a heap buffer that is freed on return, and after
; optimisation the gradient is inlined and no stack slot is left.
; Horner's scheme: p = a[0]; for i in 1..n: p = p * x + a[i].

declare { double } @__enzyme_autodiff(...)

define double @horner(ptr %a, double %x, i64 %n) {
entry:
  %a0 = load double, ptr %a, align 8
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %inext, %loop ]
  %p = phi double [ %a0, %entry ], [ %pnext, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %ai = load double, ptr %pa, align 8
  %px = fmul double %p, %x
  %pnext = fadd double %px, %ai
  %inext = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %pnext
}

define double @grad(ptr %a, ptr %da, double %x, i64 %n) {
  %r = call { double } (...) @__enzyme_autodiff(ptr @horner, ptr %a, ptr %da, double %x, i64 %n)
  %dx = extractvalue { double } %r, 0
  ret double %dx
}

; The adjoint of %pnext, passed along the back edge, is a stack slot (added to on return and on
; the back edge); it is the adjoint of %px as well (the fadd passes it through).  The adjoint of
; %p goes to the back edge (into %pnext's) or, on leaving, to a[0]'s.
; CHECK-LABEL: llvm.func internal @diffehorner(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %[[X:[^:]+]]: f64, %{{[^:]+}}: i64, %[[SEED:[^:]+]]: f64) -> f64
; CHECK:         %[[C:.*]] = autodiff.cache.init : !autodiff.cache<f64>
; CHECK:       ^{{[a-z0-9]+}}(%{{[^:]+}}: i64, %[[P:[^:]+]]: f64, %{{[^:]+}}: i64):
; CHECK-NEXT:    autodiff.cache.push %[[C]], %[[P]] : !autodiff.cache<f64>
; CHECK:         autodiff.accumulate %d_pnext, %[[SEED]] : !llvm.ptr, f64
; CHECK:         %[[DPX:.*]] = llvm.load %d_pnext : !llvm.ptr -> f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z]], %d_pnext : f64, !llvm.ptr
; CHECK-NEXT:    %[[DP1:.*]] = llvm.fmul %[[DPX]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_p, %[[DP1]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[PR:.*]] = autodiff.cache.peek %[[C]] : !autodiff.cache<f64>
; CHECK-NEXT:    %[[DX:.*]] = llvm.fmul %[[DPX]], %[[PR]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[DX]] : !llvm.ptr, f64
; CHECK:         autodiff.accumulate %{{.*}}, %[[DPX]] {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    %[[DP:.*]] = llvm.load %d_p : !llvm.ptr -> f64
; CHECK:         autodiff.cache.pop %[[C]] : !autodiff.cache<f64>
; CHECK-NEXT:    llvm.cond_br %{{.*}}, ^[[BACK:[a-z0-9]+]], ^[[OUT:[a-z0-9]+]]
; CHECK-NEXT:  ^[[OUT]]:
; CHECK-NEXT:    autodiff.accumulate %d_a0, %[[DP]] : !llvm.ptr, f64
; CHECK:       ^[[BACK]]:
; CHECK:         autodiff.accumulate %d_pnext, %[[DP]] : !llvm.ptr, f64

; LOWER-LABEL: llvm.func internal @diffehorner(
; LOWER-NOT:     autodiff.
; LOWER:       ^{{[a-z0-9]+}}(%{{[^:]+}}: i64, %[[P:[^:]+]]: f64, %{{[^:]+}}: i64):
; LOWER:         llvm.store %[[P]], %{{.*}} : f64, !llvm.ptr
; LOWER:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
; LOWER-NEXT:    llvm.return %{{.*}} : f64
; LOWER-NOT:     autodiff.
; LOWER-DAG:     llvm.func @{{(realloc|malloc)}}(
; LOWER-DAG:     llvm.func @free(!llvm.ptr)

; OPT-LABEL: define double @grad(
; OPT-NOT:     alloca
; OPT-NOT:     call {{.*}}@diffehorner
; OPT:         call {{.*}}@{{(malloc|realloc)}}(
; OPT:         call void @free(
; OPT:         ret double
; OPT-NOT:     define internal {{.*}}@diffehorner
