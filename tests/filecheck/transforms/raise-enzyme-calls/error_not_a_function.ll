; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The first argument must name the function to differentiate: a function pointer only known
; at run time cannot be differentiated.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @g(ptr %fn, double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr %fn, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: the first argument must be a function known at compile time
; CHECK-NOT:  Traceback
