; RUN: not xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=binomial}' 2>&1 | filecheck %s
; RUN: not xenzyme-opt %s -p 'checkpoint-loops{scheme=revolve}' 2>&1 | filecheck %s --check-prefix=SCHEME
; RUN: not xenzyme-opt %s -p 'checkpoint-loops{scheme=periodic period=0}' 2>&1 | filecheck %s --check-prefix=PERIOD
; RUN: not xenzyme-opt %s -p 'checkpoint-loops{budget-mb=64 checkpoints=8}' 2>&1 | filecheck %s --check-prefix=BUDGET
; RUN: not xenzyme-opt %s -p 'enzyme{tape-budget-mb=0}' 2>&1 | filecheck %s --check-prefix=BUDGET0

; A body that writes a new place each step (u[i], i the counter of the loop itself): the memory
; a checkpoint would hold is not bounded when the loop starts.
; CHECK: xenzyme-opt: error: {{.*}}checkpoint=binomial: cannot checkpoint a loop of @f: the loop body writes memory whose extent is not known when the loop starts
; CHECK: note: {{.*}}use checkpoint=off for this function
; SCHEME: xenzyme-opt: error: checkpoint-loops: unknown checkpointing scheme 'revolve'
; SCHEME: note: the schemes are off, binomial, periodic and online
; PERIOD: xenzyme-opt: error: checkpoint-loops: period must be a positive integer (got 0)
; BUDGET: xenzyme-opt: error: checkpoint-loops: a tape budget chooses the number of checkpoints: it cannot be given too (checkpoints=8)
; BUDGET: note: give either the budget (in MiB) or checkpoints=N
; BUDGET0: xenzyme-opt: error: enzyme: the tape budget must be a positive number of MiB (got 0)

declare double @__enzyme_autodiff(...)

define void @f(ptr %u, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = load double, ptr %u
  %w = fmul double %v, %v
  %at = getelementptr double, ptr %u, i64 %i
  store double %w, ptr %at
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp ult i64 %i.next, %n
  br i1 %again, label %loop, label %done

done:
  ret void
}

define void @g(ptr %u, ptr %du, i64 %n) {
  call double (...) @__enzyme_autodiff(ptr @f, ptr %u, ptr %du, i64 %n)
  ret void
}
