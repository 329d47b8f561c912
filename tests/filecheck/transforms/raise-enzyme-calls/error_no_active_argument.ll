; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; Without an active argument there is no derivative to return: using the call's result is an
; error (its value would be undefined).

source_filename = "prog.c"

@enzyme_const = external global i32

declare double @__enzyme_autodiff(...)

define double @f(ptr %p, double %x) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}

define double @g(ptr %p, ptr %dp, double %x) {
  %c = load i32, ptr @enzyme_const
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, i32 %c, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: no argument is active, so there is no derivative to return
; CHECK-NEXT: note: declare __enzyme_autodiff as returning void, or mark an argument active
; CHECK-NOT:  Traceback
