; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; A function that is only declared cannot be differentiated: the error is at the request (with
; its file) rather than later, without a location, in reverse-diff.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)
declare double @f(double)

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: @f is only declared in this module: its body is needed to differentiate it
; CHECK-NEXT: note: define it in the same file (or link its module into this one first)
; CHECK-NOT:  Traceback
