; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; An unmarked pointer is duplicated: its shadow must follow it.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

define double @g(ptr %p) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 (dup) needs a shadow argument after it
; CHECK-NOT:  Traceback
