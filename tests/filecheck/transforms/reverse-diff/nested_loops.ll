; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Nested loops: each loop has its own counter and reverse counter.  The outer loop's iteration
; count is one value (a `single` cache); the inner loop's is pushed once per outer iteration (a
; stack).  The inner loop's count is restored when the reverse sweep enters it from its exit.
; x[j] is cached rather than reloaded: %out, written after the loops, may alias %x.

declare void @__enzyme_autodiff(...)

; acc = 1; for i < n: for j < m: acc *= x[j];  *out = acc
define void @f(ptr %x, ptr %out, i64 %n, i64 %m) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %inext, %outer.latch ]
  %acc = phi double [ 1.0, %entry ], [ %an, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %jnext, %inner ]
  %a = phi double [ %acc, %outer ], [ %an, %inner ]
  %px = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %px, align 8
  %an = fmul double %a, %v
  %jnext = add nuw i64 %j, 1
  %jdone = icmp eq i64 %jnext, %m
  br i1 %jdone, label %outer.latch, label %inner
outer.latch:
  %inext = add nuw i64 %i, 1
  %idone = icmp eq i64 %inext, %n
  br i1 %idone, label %exit, label %outer
exit:
  store double %an, ptr %out, align 8
  ret void
}

define void @g(ptr %x, ptr %dx, ptr %o, ptr %do, i64 %n, i64 %m) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %o, ptr %do, i64 %n, i64 %m)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-DAG:     %[[INNER_N:.*]] = autodiff.cache.init : !autodiff.cache<i64>
; CHECK-DAG:     %[[OUTER_N:.*]] = autodiff.cache.init single : !autodiff.cache<i64>
; CHECK-DAG:     %[[RIV_OUTER:riv[_0-9]*]] = llvm.alloca %{{.*}} x i64
; CHECK-DAG:     %[[RIV_INNER:riv[_0-9]*]] = llvm.alloca %{{.*}} x i64
; CHECK-DAG:     %[[V:.*]] = autodiff.cache.init : !autodiff.cache<f64>

; Forward: the counters are block arguments of the headers; the counts are pushed on exit.
; CHECK:       ^[[OUTER:[a-z0-9]+]](%{{[^:]+}}: i64, %{{[^:]+}}: f64, %[[IV_OUTER:[^:]+]]: i64):
; CHECK:       ^[[INNER:[a-z0-9]+]](%{{[^:]+}}: i64, %{{[^:]+}}: f64, %[[IV_INNER:[^:]+]]: i64):
; CHECK:         %[[VAL:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         autodiff.cache.push %[[V]], %[[VAL]] : !autodiff.cache<f64>
; CHECK-DAG:     autodiff.cache.push %[[INNER_N]], %[[IV_INNER]] : !autodiff.cache<i64>
; CHECK-DAG:     autodiff.cache.push %[[OUTER_N]], %[[IV_OUTER]] : !autodiff.cache<i64>

; Reverse: the outer count first, then an inner count per outer iteration.
; CHECK:         %[[NO:.*]] = autodiff.cache.peek %[[OUTER_N]] : !autodiff.cache<i64>
; CHECK-NEXT:    autodiff.cache.pop %[[OUTER_N]] : !autodiff.cache<i64>
; CHECK-NEXT:    llvm.store %[[NO]], %[[RIV_OUTER]] : i64, !llvm.ptr
; CHECK:         %[[NI:.*]] = autodiff.cache.peek %[[INNER_N]] : !autodiff.cache<i64>
; CHECK-NEXT:    autodiff.cache.pop %[[INNER_N]] : !autodiff.cache<i64>
; CHECK-NEXT:    llvm.store %[[NI]], %[[RIV_INNER]] : i64, !llvm.ptr
; CHECK:         autodiff.cache.peek %[[V]] : !autodiff.cache<f64>
; CHECK:         autodiff.cache.pop %[[V]] : !autodiff.cache<f64>
; CHECK:         llvm.return
