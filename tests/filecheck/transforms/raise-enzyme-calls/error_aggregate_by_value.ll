; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; An unmarked struct of doubles passed by value (as rustc or Julia may pass one): by Enzyme's
; defaults it is active, but reverse mode cannot return the derivative of an aggregate yet.  It
; is an error rather than a constant argument whose derivative is silently dropped.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f({ double, double } %p) {
  %a = extractvalue { double, double } %p, 0
  %b = extractvalue { double, double } %p, 1
  %m = fmul double %a, %b
  ret double %m
}

define double @g({ double, double } %p) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, { double, double } %p)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 (!llvm.struct<(f64, f64)>) holds floating-point values passed by value, whose derivative reverse mode cannot return yet
; CHECK-NEXT: note: mark it enzyme_const if it needs no derivative, or pass it by pointer with enzyme_dup and a shadow that receives its derivative
; CHECK-NOT:  Traceback
