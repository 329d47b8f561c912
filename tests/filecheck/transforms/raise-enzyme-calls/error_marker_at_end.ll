; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; A marker must be followed by the argument it marks.

source_filename = "prog.c"

@enzyme_const = external global i32

declare double @__enzyme_autodiff(...)

define double @f(double %x) {
  ret double %x
}

define double @g(double %x) {
  %m = load i32, ptr @enzyme_const
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, i32 %m)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: enzyme_const must be followed by an argument
; CHECK-NOT:  Traceback
