; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; A function that asks for its own tangent.

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)

define double @f(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: a forward-mode request differentiates the function that contains it
; CHECK-NOT:  Traceback
