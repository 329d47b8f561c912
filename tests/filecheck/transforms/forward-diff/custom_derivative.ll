; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; A derivative the program registers for an external function (Enzyme's C convention): the
; argument followed by its tangent; {result, tangent} comes back.

source_filename = "prog.c"

@__enzyme_register_derivative_mystery = global [2 x ptr] [ptr @mystery, ptr @mystery_fwd]

declare double @__enzyme_fwddiff(...)
declare double @mystery(double)
declare { double, double } @mystery_fwd(double, double)

define double @f(double %x) {
  %s = call double @mystery(double %x)
  %r = fmul double %s, %x
  ret double %r
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @fwddiffef(
; CHECK:         %[[BOTH:.*]] = llvm.call @mystery_fwd(%x{{.*}}, %d_x) : (f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[S:.*]] = llvm.extractvalue %[[BOTH]][0]
; CHECK-NEXT:    %[[DS:.*]] = llvm.extractvalue %[[BOTH]][1]
; CHECK-NOT:     llvm.call @mystery(
