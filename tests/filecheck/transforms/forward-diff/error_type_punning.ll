; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; fabs written as integer code on the bits of a double: the tangent would be lost.

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)

define double @f(double %x) {
  %i = bitcast double %x to i64
  %a = and i64 %i, 9223372036854775807
  %r = bitcast i64 %a to double
  ret double %r
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: the bits of a floating-point value with a derivative are changed, passed or returned as an integer (type punning); its derivative would be lost
; CHECK-NEXT: note: in: %r = bitcast i64 %a to double
; CHECK-NEXT: note: compute with floating-point operations (fabs, copysign, ldexp, frexp, ...), or give the function a custom derivative
; CHECK-NOT:  Traceback
