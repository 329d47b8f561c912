; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; An external function without a derivative rule, called with an active argument.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)
declare double @mystery(double)

define double @f(double %x) {
  %s = call double @mystery(double %x)
  ret double %s
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: no derivative is known for external function @mystery
; CHECK-NEXT: note: in: %s = call double @mystery(double %x)
; CHECK-NEXT: note: give one with __enzyme_register_gradient_mystery, or mark it inactive
; CHECK-NOT:  Traceback
