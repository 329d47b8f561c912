; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; enzyme_out (active) on an integer: only floating-point values have derivatives.

source_filename = "prog.c"

@enzyme_out = external global i32

declare double @__enzyme_autodiff(...)

define double @f(double %x, i32 %n) {
  ret double %x
}

define double @g(double %x, i32 %n) {
  %m = load i32, ptr @enzyme_out
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, i32 %m, i32 %n)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 1 is marked active but is not floating point (i32)
; CHECK-NEXT: note: use enzyme_dup for pointers and enzyme_const for integers
; CHECK-NOT:  Traceback
