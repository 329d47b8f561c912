; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The address of a global variable is not a function.

source_filename = "prog.c"

@table = global [2 x double] zeroinitializer

declare double @__enzyme_autodiff(...)

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @table, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: @table is not a function
; CHECK-NOT:  Traceback
