; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The same for enzyme_dupnoneed (as a metadata marker) on a vector of floats passed by value.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(<2 x double> %v) {
  %r = call double @llvm.vector.reduce.fadd.v2f64(double 0.0, <2 x double> %v)
  ret double %r
}

declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define double @g(<2 x double> %v, <2 x double> %dv) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dupnoneed", <2 x double> %v, <2 x double> %dv)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 (vector<2xf64>) is passed by value and marked enzyme_dupnoneed: a shadow passed by value cannot receive its derivative
; CHECK-NEXT: note: pass a floating-point argument without a marker or with enzyme_out to get its derivative returned, or with enzyme_const for none; enzyme_dup is for pointers
; CHECK-NOT:  Traceback
