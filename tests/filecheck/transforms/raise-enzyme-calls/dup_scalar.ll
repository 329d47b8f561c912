; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; enzyme_dup on a floating-point value passed by value.  In reverse mode a shadow passed by value
; cannot receive anything: the derivative of %x would have nowhere to go (it used to be dropped
; silently).  It is an error, as enzyme_out on an integer is.

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

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 (f64) is passed by value and marked enzyme_dup: a shadow passed by value cannot receive its derivative
; CHECK-NEXT: note: pass a floating-point argument without a marker or with enzyme_out to get its derivative returned, or with enzyme_const for none; enzyme_dup is for pointers
; CHECK-NOT:  Traceback
