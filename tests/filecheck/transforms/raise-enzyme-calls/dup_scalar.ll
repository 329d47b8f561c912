; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s
; XFAIL: *

; enzyme_dup on a floating-point value passed by value.  In reverse mode a shadow passed by value
; cannot receive anything: the derivative of %x has nowhere to go.  It should be an error, as
; enzyme_out on an integer is.
;
; Bug: the request is accepted as `activity [dup, active]` on an f64; reverse-diff then treats %x
; as constant and silently drops its derivative.

source_filename = "prog.c"

@enzyme_dup = external global i32

declare double @__enzyme_autodiff(...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @g(double %x, double %dx, double %y) {
  %d = load i32, ptr @enzyme_dup
  %r = call double (...) @__enzyme_autodiff(ptr @f, i32 %d, double %x, double %dx, double %y)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 {{.*}}
; CHECK-NOT:  Traceback
