; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; An external function without a derivative, called with a value that has a tangent.

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)
declare double @mystery(double)

define double @f(double %x) {
  %s = call double @mystery(double %x)
  ret double %s
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: no derivative is known for external function @mystery
; CHECK-NEXT: note: in: %s = call double @mystery(double %x)
; CHECK-NEXT: note: give it a custom derivative (__enzyme_register_derivative_mystery), define it in this module, or mark its arguments enzyme_const
; CHECK-NOT:  Traceback
