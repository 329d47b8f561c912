; RUN: not xenzyme-opt %s -p 'print-activity{function=f args=active,dup}' 2>&1 | filecheck %s --check-prefix=COUNT
; RUN: not xenzyme-opt %s -p 'print-activity{function=f args=active,dup,wobbly}' 2>&1 | filecheck %s --check-prefix=WORD
; RUN: not xenzyme-opt %s -p 'print-activity{function=nope args=active ret=const}' 2>&1 | filecheck %s --check-prefix=NAME

; Bad options: one activity per argument, known words only, a function with a body.

define double @f(double %x, ptr %p, i32 %n) {
  ret double %x
}

; COUNT:      xenzyme-opt: error: print-activity: @f takes 3 arguments, 2 activities given
; COUNT-NOT:  Traceback
; WORD:       xenzyme-opt: error: print-activity: unknown activity 'wobbly'
; WORD-NOT:   Traceback
; NAME:       xenzyme-opt: error: print-activity: no function body named @nope
; NAME-NOT:   Traceback
