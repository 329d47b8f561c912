; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; __enzyme_reverse needs the tape: after the arguments (and after the return adjoint of a
; floating-point return), or as `enzyme_tape, tape`.  Here the one extra argument is the return
; adjoint, and nothing is left for the tape.

source_filename = "prog.c"

declare double @__enzyme_reverse(...)

define double @f(ptr %x) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  ret double %s
}

define void @g(ptr %x, ptr %dx, ptr %tape) {
  call double (...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, double 1.0)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_reverse call: missing tape argument: the reverse pass needs the tape that __enzyme_augmentfwd made
; CHECK-NEXT: note: pass it after the arguments (after the return adjoint of a floating-point return), or as enzyme_tape, tape
; CHECK-NOT:  Traceback
