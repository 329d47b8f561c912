; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s
; RUN: xenzyme-opt %s -p 'raise-enzyme-calls,reverse-diff{mincut=false}' | filecheck %s --check-prefix=GREEDY

; What the reverse sweep caches is a minimum cut between the values it cannot recompute (loads
; from memory written later, call results, phis) and the values its rules need.
;   @sum        s = x[i] + y[i] is needed (d(s*s)); caching s (one f64 per iteration) is cheaper
;               than caching x[i] and y[i].
;   @operands   1/a, b*b, a*b and a+b are needed, and a and b for the derivatives of the
;               quotient and the products: caching a and b is enough, the rest is recomputed
;               (the greedy choice, mincut=false, caches all six).  Math functions (sin, exp)
;               are not recomputed: their results are cached when needed.
;   @invariant  c[0] is read in every iteration and written after the loop: it is the same in
;               every iteration, so it is pushed once where the loop exits, into a single slot,
;               and popped after the reverse of the loop.
;   @invariant_body  the same where the loop is left before the load: a single slot.

declare void @__enzyme_autodiff(...)

define void @sum(ptr noalias %x, ptr noalias %y, ptr noalias %out, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %xi = load double, ptr %px, align 8
  %yi = load double, ptr %py, align 8
  %s = fadd double %xi, %yi
  %sq = fmul double %s, %s
  %po = getelementptr inbounds double, ptr %out, i64 %i
  store double %sq, ptr %po, align 8
  %inext = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  store double 0.0, ptr %x, align 8
  store double 0.0, ptr %y, align 8
  ret void
}

define void @operands(ptr noalias %x, ptr noalias %y, ptr noalias %out, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %a = load double, ptr %px, align 8
  %b = load double, ptr %py, align 8
  %sa = fdiv double 1.0, %a
  %cb = fmul double %b, %b
  %ab = fmul double %a, %b
  %apb = fadd double %a, %b
  %t1 = fmul double %sa, %cb
  %t2 = fmul double %ab, %apb
  %r = fadd double %t1, %t2
  %po = getelementptr inbounds double, ptr %out, i64 %i
  store double %r, ptr %po, align 8
  %inext = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  store double 0.0, ptr %x, align 8
  store double 0.0, ptr %y, align 8
  ret void
}

define void @invariant(ptr noalias %x, ptr noalias %c, ptr noalias %out, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %cv = load double, ptr %c, align 8
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %px, align 8
  %p = fmul double %xi, %cv
  %po = getelementptr inbounds double, ptr %out, i64 %i
  store double %p, ptr %po, align 8
  %inext = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  store double 0.0, ptr %c, align 8
  ret void
}

; The loop is left from its header, before the load: the load's value does not reach the exit,
; so it is kept in a single slot instead, overwritten with the same value in each iteration.
define double @invariant_body(ptr noalias %x, ptr noalias %c, i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %inext, %body ]
  %acc = phi double [ 0.0, %entry ], [ %accnext, %body ]
  %done = icmp eq i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  %cv = load double, ptr %c, align 8
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %px, align 8
  %p = fmul double %xi, %cv
  %accnext = fadd double %acc, %p
  %inext = add nuw nsw i64 %i, 1
  br label %head
exit:
  store double 0.0, ptr %c, align 8
  ret double %acc
}

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %o, ptr %do, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @sum, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %o, ptr %do, i64 %n)
  call void (...) @__enzyme_autodiff(ptr @operands, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %o, ptr %do, i64 %n)
  call void (...) @__enzyme_autodiff(ptr @invariant, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %o, ptr %do, i64 %n)
  %r = call double (...) @__enzyme_autodiff(ptr @invariant_body, ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffesum(
; CHECK:         %[[LIM:[^ ,:]+]] = autodiff.cache.init single : !autodiff.cache<i64>
; CHECK-NEXT:    %[[S:[^ ,:]+]] = autodiff.cache.init : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.init
; CHECK:       ^{{.*}}(%{{.*}}: i64, %[[IV:[^ ,:]+]]: i64):
; CHECK-NOT:     autodiff.cache.push
; CHECK:         %[[SV:[^ ,:]+]] = llvm.fadd %{{.*}}, %{{.*}} : f64
; CHECK-NEXT:    autodiff.cache.push %[[S]], %[[SV]] : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.push %{{.*}} : !autodiff.cache<f64>
; CHECK:         autodiff.cache.push %[[LIM]], %[[IV]] : !autodiff.cache<i64>
; CHECK-NOT:     autodiff.cache.push
; The reverse sweep: s from the cache, no load of x or y.
; CHECK:         %[[SP:[^ ,:]+]] = autodiff.cache.peek %[[S]] : !autodiff.cache<f64>
; CHECK-NOT:     llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         autodiff.cache.pop %[[S]] : !autodiff.cache<f64>
; CHECK:         llvm.return

; CHECK-LABEL: llvm.func internal @diffeoperands(
; CHECK:         autodiff.cache.init single : !autodiff.cache<i64>
; CHECK-NEXT:    %[[CA:[^ ,:]+]] = autodiff.cache.init : !autodiff.cache<f64>
; CHECK-NEXT:    %[[CB:[^ ,:]+]] = autodiff.cache.init : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.init
; CHECK:         %[[A:[^ ,:]+]] = llvm.load
; CHECK-NEXT:    autodiff.cache.push %[[CA]], %[[A]] : !autodiff.cache<f64>
; CHECK-NEXT:    %[[B:[^ ,:]+]] = llvm.load
; CHECK-NEXT:    autodiff.cache.push %[[CB]], %[[B]] : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.push %{{.*}} : !autodiff.cache<f64>
; Reverse: 1/a and b*b recomputed from the cached a and b.
; CHECK-DAG:     %[[RA:[^ ,:]+]] = autodiff.cache.peek %[[CA]] : !autodiff.cache<f64>
; CHECK-DAG:     %[[RB:[^ ,:]+]] = autodiff.cache.peek %[[CB]] : !autodiff.cache<f64>
; CHECK-DAG:     llvm.fdiv %{{.*}}, %[[RA]] : f64
; CHECK-DAG:     llvm.fmul %[[RB]], %[[RB]] : f64
; CHECK:         llvm.return

; GREEDY-LABEL: llvm.func internal @diffeoperands(
; GREEDY-COUNT-6: autodiff.cache.init : !autodiff.cache<f64>
; GREEDY-NOT:     autodiff.cache.init
; GREEDY-COUNT-6: autodiff.cache.push %{{.*}} : !autodiff.cache<f64>
; GREEDY:         llvm.return

; CHECK-LABEL: llvm.func internal @diffeinvariant(
; CHECK:         %[[LIM2:[^ ,:]+]] = autodiff.cache.init single : !autodiff.cache<i64>
; CHECK-NEXT:    %[[C:[^ ,:]+]] = autodiff.cache.init single : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.init
; CHECK:       ^{{.*}}(%{{.*}}: i64, %[[IV2:[^ ,:]+]]: i64):
; CHECK-NEXT:    %[[CV:[^ ,:]+]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NOT:     autodiff.cache
; CHECK:         llvm.cond_br %{{.*}}, ^[[EXIT:.*]], ^
; CHECK:       ^[[EXIT]]:
; CHECK-NEXT:    autodiff.cache.push %[[LIM2]], %[[IV2]] : !autodiff.cache<i64>
; CHECK-NEXT:    autodiff.cache.push %[[C]], %[[CV]] : !autodiff.cache<f64>
; Reverse: peeked in the loop, popped once after it.
; CHECK:         autodiff.cache.pop %[[LIM2]] : !autodiff.cache<i64>
; CHECK:         %{{.*}} = autodiff.cache.peek %[[C]] : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.pop %[[C]]
; CHECK:         llvm.cond_br
; CHECK:         autodiff.cache.pop %[[C]] : !autodiff.cache<f64>
; CHECK-NOT:     autodiff.cache.pop %[[C]]
; CHECK:         llvm.return

; GREEDY-LABEL: llvm.func internal @diffeinvariant(
; GREEDY:         autodiff.cache.init : !autodiff.cache<f64>

; CHECK-LABEL: llvm.func internal @diffeinvariant_body(
; CHECK-DAG:     %[[C2:[^ ,:]+]] = autodiff.cache.init single : !autodiff.cache<f64>
; CHECK-DAG:     autodiff.cache.init single : !autodiff.cache<i64>
; CHECK-NOT:     autodiff.cache.init
; CHECK:         %[[CV2:[^ ,:]+]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    autodiff.cache.push %[[C2]], %[[CV2]] : !autodiff.cache<f64>
; CHECK:         autodiff.cache.peek %[[C2]] : !autodiff.cache<f64>
; CHECK:         llvm.return
