; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; Float bits changed as an integer (here: a sign flip by xor) would lose the derivative.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(double %x) {
  %b = bitcast double %x to i64
  %c = xor i64 %b, -9223372036854775808
  %d = bitcast i64 %c to double
  ret double %d
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: the bits of a floating-point value with a derivative are changed, passed or returned as an integer (type punning); its derivative would be lost
; CHECK-NEXT: note: in: %d = bitcast i64 %c to double
; CHECK-NEXT: note: compute with floating-point operations (fabs, copysign, ldexp, frexp, ...), or give the function a custom derivative
; CHECK-NOT:  Traceback
