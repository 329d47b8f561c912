; RUN: not xenzyme-opt %s -p 'print-activity{function=f args=active ret=wobbly}' 2>&1 | filecheck %s
; XFAIL: *

; The return activity must be one of active, const, none, like the argument activities (whose
; unknown words are rejected).
;
; Bug: `ret` is not checked: an unknown word is taken as "not active" and the function is
; annotated as if ret=const, with exit status 0.

define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

; CHECK:      xenzyme-opt: error: print-activity: unknown return activity 'wobbly'
