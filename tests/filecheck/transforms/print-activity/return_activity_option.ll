; RUN: not xenzyme-opt %s -p 'print-activity{function=f args=active ret=wobbly}' 2>&1 | filecheck %s
; RUN: not xenzyme-opt %S/no-such-input.ll -p 'print-activity{function=f args=active ret=wobbly}' 2>&1 | filecheck %s
; RUN: not xenzyme-opt %s -p 'print-activity{function=f args=active ret=none}' 2>&1 | filecheck %s --check-prefix=NONE
; RUN: not xenzyme-opt %s -p 'print-activity{function=v args=active ret=active}' 2>&1 | filecheck %s --check-prefix=VOID
; RUN: xenzyme-opt %s -p 'print-activity{function=v args=active}' | filecheck %s --check-prefix=VOIDOK
; RUN: not xenzyme-opt %s -p 'print-activity{args=active}' 2>&1 | filecheck %s --check-prefix=NOFN

; The return activity must be one of active, const, none, like the argument activities (whose
; unknown words are rejected); an unknown word used to be taken as const.  Options are checked
; when the pipeline is read, before the input (the second RUN line's file does not exist).
; `none` is for functions returning void, and the default for them.

define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define void @v(double %x) {
  ret void
}

; CHECK:      xenzyme-opt: error: print-activity: unknown return activity 'wobbly'
; CHECK-NEXT: note: the return activities are active, const, none
; CHECK-NOT:  Traceback

; NONE:       xenzyme-opt: error: print-activity: @f returns f64, ret=none does not fit
; NONE-NEXT:  note: ret=none is for functions returning void, active or const for the others

; VOID:       xenzyme-opt: error: print-activity: @v returns void, ret=active does not fit

; VOIDOK:     llvm.func @v(%{{.*}}: f64) attributes {arg_activity = ["const"]}

; NOFN:       xenzyme-opt: error: print-activity: args and ret need function=NAME
