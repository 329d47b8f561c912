; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; Enzyme markers that __enzyme_autodiff does not support yet (vector width, tapes, ...) are
; named in an error rather than taken for arguments.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(double %x) {
  ret double %x
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_width", i64 2, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: enzyme_width is not supported with __enzyme_autodiff yet
; CHECK-NOT:  Traceback
