; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; __enzyme_autodiff declared as returning double for a function of a float: the derivative is
; an f32, four bytes, and the call's result eight.  Reading the double back through memory
; would give the float's bits and four undefined bytes (it used to, silently).  Enzyme rejects
; such a call ("Cannot cast return type of gradient"), and so does xenzyme; a result of the same
; size (two floats as <2 x float>) or the first of several derivatives is accepted (results.ll).

source_filename = "prog.c"

declare double @__enzyme_autodiff(ptr, float)

define float @f(float %x) {
  %m = fmul float %x, %x
  ret float %m
}

define double @g(float %x) {
  %r = call double @__enzyme_autodiff(ptr @f, float %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: cannot cast return type of gradient f32 (4 bytes) to the call's return type f64 (8 bytes)
; CHECK-NEXT: note: declare __enzyme_autodiff as returning float, the type of the derivative
; CHECK-NOT:  Traceback
