; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; A registered forward derivative that does not take a tangent after each floating-point argument.

source_filename = "prog.c"

@__enzyme_register_derivative_mystery = global [2 x ptr] [ptr @mystery, ptr @mystery_fwd]

declare double @__enzyme_fwddiff(...)
declare double @mystery(double)
declare double @mystery_fwd(double)

define double @f(double %x) {
  %s = call double @mystery(double %x)
  ret double %s
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK: xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: the custom derivative of @mystery (__enzyme_register_derivative_mystery): @mystery_fwd takes 1 arguments; it must take 2 (each argument, floating-point ones and pointers followed by their tangent or shadow)
; CHECK-NOT: Traceback
