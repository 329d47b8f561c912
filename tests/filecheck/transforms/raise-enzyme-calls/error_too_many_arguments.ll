; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; More arguments than the function takes (here: an integer after the last parameter).

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(ptr %p, double %x, i32 %n) {
  ret double %x
}

define double @g(ptr %p, ptr %dp, double %x, i32 %n) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, double %x, i32 %n, i32 %n)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: too many arguments: @f takes 3
; CHECK-NOT:  Traceback
