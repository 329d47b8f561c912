; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; A stack slot allocated inside a loop that holds active data.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(double %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %accnext, %loop ]
  %tmp = alloca double, align 8
  store double %x, ptr %tmp, align 8
  %v = load double, ptr %tmp, align 8
  %accnext = fadd double %acc, %v
  %inext = add i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %accnext
}

define double @g(double %x, i64 %n) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, i64 %n)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: an alloca inside a loop holds active data; hoist it out of the loop
; CHECK-NEXT: note: in: %tmp = alloca double, i32 1, align 8
; CHECK-NOT:  Traceback
