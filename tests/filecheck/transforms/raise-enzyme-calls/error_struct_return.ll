; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; Reverse mode seeds a floating-point return with 1.0; a function returning a struct of floats
; has no such seed (nor in Enzyme's C interface).  The note suggests an output array instead.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define { double, double } @f(double %x) {
  %a = insertvalue { double, double } undef, double %x, 0
  %b = insertvalue { double, double } %a, double %x, 1
  ret { double, double } %b
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: @f returns !llvm.struct<(f64, f64)>, which holds floating-point values; reverse mode seeds only a floating-point return
; CHECK-NEXT: note: return a single double, or write the results to an output array passed with enzyme_dup, whose shadow is the seed
; CHECK-NOT:  Traceback
