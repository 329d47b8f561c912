; RUN: not xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=binomial}' 2>&1 | filecheck %s

; A loop left from two places (to two different blocks): a step could not say where to go on.
; CHECK: xenzyme-opt: error: {{.*}}checkpoint=binomial: cannot checkpoint a loop of @f: the loop leaves from more than one place, or not at the end of its body
; CHECK: note: only counted loops that run to their end are checkpointed
; CHECK: note: use checkpoint=off for this function

declare double @__enzyme_autodiff(...)

define double @f(double %x0, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %x = phi double [ %x0, %entry ], [ %x.next, %latch ]
  %big = fcmp ogt double %x, 1.0e+01
  br i1 %big, label %early, label %latch

latch:
  %x.next = fmul double %x, 1.5
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %done

early:
  %twice = fmul double %x, 2.0
  ret double %twice

done:
  ret double %x.next
}

define double @g(double %x0, i64 %n) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x0, i64 %n)
  ret double %d
}
