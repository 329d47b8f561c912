; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The argument after a duplicated pointer is its shadow and must have its type.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(ptr %p, double %x, i32 %n) {
  ret double %x
}

define double @g(ptr %p, double %x, i32 %n) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, double %x, double %x, i32 %n)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: the shadow of argument 0 has type f64, expected !llvm.ptr
; CHECK-NOT:  Traceback
