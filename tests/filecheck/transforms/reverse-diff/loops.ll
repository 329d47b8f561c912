; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; A loop.  The forward sweep counts iterations (%iv, an extra block argument of the header) and
; caches the count when the loop exits; the reverse sweep runs the body backwards with the
; reverse counter `riv`, counting down to 0.  What the reverse body needs from the primal:
;   %x, %yy   loop invariants: used directly, not cached;
;   %i        induction variable: recomputed from riv (start + riv), not cached;
;   a[i]      a load from memory nothing writes: recomputed, not cached;
;   %acc      loop-carried, needed by d(acc * x)/dx: cached, one value per iteration.

declare { double, double } @__enzyme_autodiff(...)

; acc = 0; for (i = 0; i != n; i++) acc = acc * x + a[i] * y * y
define double @f(ptr %a, double %x, double %y, i64 %n) {
entry:
  %yy = fmul double %y, %y
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %accnext, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %ai = load double, ptr %pa, align 8
  %t = fmul double %acc, %x
  %u = fmul double %ai, %yy
  %accnext = fadd double %t, %u
  %inext = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %accnext
}

define { double, double } @g(ptr %a, ptr %da, double %x, double %y, i64 %n) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @f, ptr %a, ptr %da, double %x, double %y, i64 %n)
  ret { double, double } %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[A:[^:]+]]: !llvm.ptr, %[[DA:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %{{[^:]+}}: i64, %[[SEED:[^:]+]]: f64)
; CHECK-DAG:     %[[LIMIT:.*]] = autodiff.cache.init single : !autodiff.cache<i64>
; CHECK-DAG:     %[[RIV:riv[_0-9]*]] = llvm.alloca %{{.*}} x i64
; CHECK-DAG:     %[[ACCS:.*]] = autodiff.cache.init : !autodiff.cache<f64>

; Forward sweep.
; CHECK:         %[[YY:.*]] = llvm.fmul %[[Y]], %[[Y]] : f64
; CHECK:         llvm.br ^[[HEAD:[a-z0-9]+]](%{{.*}}, %{{.*}}, %{{.*}} : i64, f64, i64)
; CHECK-NEXT:  ^[[HEAD]](%[[I:[^:]+]]: i64, %[[ACC:[^:]+]]: f64, %[[IV:[^:]+]]: i64):
; CHECK-NEXT:    autodiff.cache.push %[[ACCS]], %[[ACC]] : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.push
; CHECK:         %[[IVN:.*]] = llvm.add %[[IV]], %{{.*}} : i64
; CHECK-NEXT:    llvm.cond_br %{{.*}}, ^[[EXIT:[a-z0-9]+]], ^[[HEAD]](%{{.*}}, %{{.*}}, %[[IVN]] : i64, f64, i64)
; CHECK:       ^[[EXIT]]:
; CHECK-NEXT:    autodiff.cache.push %[[LIMIT]], %[[IV]] : !autodiff.cache<i64>

; Reverse sweep: start at the last iteration.  The adjoint of %accnext, which is passed along
; the back edge, is a stack slot: the seed is added to it on leaving the loop, the phi's adjoint
; on the back edge.  Those of %t, %u and %ai, used in the body only, are SSA values.
; CHECK:         autodiff.accumulate %d_accnext, %[[SEED]] : !llvm.ptr, f64
; CHECK:         %[[L:.*]] = autodiff.cache.peek %[[LIMIT]] : !autodiff.cache<i64>
; CHECK-NEXT:    autodiff.cache.pop %[[LIMIT]] : !autodiff.cache<i64>
; CHECK-NEXT:    llvm.store %[[L]], %[[RIV]] : i64, !llvm.ptr
; CHECK-NEXT:    llvm.br ^[[RBODY:[a-z0-9]+]]
; CHECK-NEXT:  ^[[RBODY]]:
; CHECK-NEXT:    %[[DNEXT:.*]] = llvm.load %d_accnext : !llvm.ptr -> f64
; CHECK-NEXT:    %[[CLEAR:.*]] = llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[CLEAR]], %d_accnext : f64, !llvm.ptr

; accnext = t + u: d_t = d_u = d_accnext.
; u = ai * yy: the invariant directly; ai reloaded from a[start + riv].
; CHECK-NEXT:    %[[DAI:.*]] = llvm.fmul %[[DNEXT]], %[[YY]] : f64
; CHECK-NEXT:    %[[R:.*]] = llvm.load %[[RIV]] : !llvm.ptr -> i64
; CHECK:         %[[IR:.*]] = llvm.add %{{.*}}, %[[R]] : i64
; CHECK-NEXT:    %[[PA:.*]] = llvm.getelementptr inbounds %[[A]][%[[IR]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
; CHECK-NEXT:    %[[AI:.*]] = llvm.load %[[PA]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[DYYI:.*]] = llvm.fmul %[[DNEXT]], %[[AI]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_yy, %[[DYYI]] : !llvm.ptr, f64

; t = acc * x: x directly, acc from the cache.
; CHECK-NEXT:    %[[DACCI:.*]] = llvm.fmul %[[DNEXT]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_acc, %[[DACCI]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[ACCR:.*]] = autodiff.cache.peek %[[ACCS]] : !autodiff.cache<f64>
; CHECK-NEXT:    %[[DXI:.*]] = llvm.fmul %[[DNEXT]], %[[ACCR]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[DXI]] : !llvm.ptr, f64

; The load's adjoint goes to da[start + riv], the shadow address recomputed the same way.
; CHECK-NEXT:    %[[DPA:.*]] = llvm.getelementptr inbounds %[[DA]][%[[IR]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %[[DPA]], %[[DAI]] {alignment = 8 : i64} : !llvm.ptr, f64

; Back to the previous iteration while riv != 0, passing the phi's adjoint along the back edge.
; CHECK-NEXT:    %[[DACC:.*]] = llvm.load %d_acc : !llvm.ptr -> f64
; CHECK:         %[[R2:.*]] = llvm.load %[[RIV]] : !llvm.ptr -> i64
; CHECK:         %[[MORE:.*]] = llvm.icmp "ne" %[[R2]], %{{.*}} : i64
; CHECK:         autodiff.cache.pop %[[ACCS]] : !autodiff.cache<f64>
; CHECK-NEXT:    llvm.cond_br %[[MORE]], ^[[BACK:[a-z0-9]+]], ^[[DONE:[a-z0-9]+]]
; CHECK:       ^[[BACK]]:
; CHECK-NEXT:    %[[R3:.*]] = llvm.load %[[RIV]] : !llvm.ptr -> i64
; CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
; CHECK-NEXT:    %[[RM:.*]] = llvm.sub %[[R3]], %[[ONE]] : i64
; CHECK-NEXT:    llvm.store %[[RM]], %[[RIV]] : i64, !llvm.ptr
; CHECK-NEXT:    autodiff.accumulate %d_accnext, %[[DACC]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[RBODY]]

; Before the loop: yy = y * y, one contribution to %y's slot per operand.
; CHECK:         %[[DYY:.*]] = llvm.load %d_yy : !llvm.ptr -> f64
; CHECK:         %[[DY1:.*]] = llvm.fmul %[[DYY]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[DY1]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DY2:.*]] = llvm.fmul %[[DYY]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[DY2]] : !llvm.ptr, f64
; CHECK-NOT:     autodiff.cache
; CHECK:         %[[GX:.*]] = llvm.load %d_x : !llvm.ptr -> f64
; CHECK:         %[[GY:.*]] = llvm.load %d_y : !llvm.ptr -> f64
; CHECK:         %[[S0:.*]] = llvm.insertvalue %[[GX]], %{{.*}}[0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[GY]], %[[S0]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[S1]] : !llvm.struct<(f64, f64)>
