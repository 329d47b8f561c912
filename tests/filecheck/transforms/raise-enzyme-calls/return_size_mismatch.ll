; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s
; XFAIL: *

; __enzyme_autodiff declared as returning double for a function of a float: the derivative is
; an f32, four bytes, and the call's result eight.  Enzyme rejects such a call ("Cannot cast
; return type of gradient").
;
; Bug: the result is reinterpreted through a stack slot without comparing sizes, so the double
; returned holds the float's bits and four uninitialised bytes -- a wrong value, no error.

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

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: {{.*}}
; CHECK-NOT:  Traceback
