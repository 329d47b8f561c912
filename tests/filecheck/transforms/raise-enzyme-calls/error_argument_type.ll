; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; Arguments must have the types of the parameters.  The usual cause: a float passed through
; `...` arrives as a double; the note says so.

source_filename = "prog.c"

declare float @__enzyme_autodiff(...)

define float @f(float %x) {
  %m = fmul float %x, %x
  ret float %m
}

define float @g(float %x) {
  %d = fpext float %x to double
  %r = call float (...) @__enzyme_autodiff(ptr @f, double %d)
  ret float %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 of @f has type f32, got f64
; CHECK-NEXT: note: a float passed through `...` is promoted to double; declare a prototype for __enzyme_autodiff with float parameters
; CHECK-NOT:  Traceback
