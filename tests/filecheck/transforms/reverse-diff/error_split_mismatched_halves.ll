; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; The tape an augmented call made fits only the reverse of the same function with the same
; activities.  Here the reverse marks %y constant where the augmented call duplicated it (the
; tape goes through the returned pointer).

source_filename = "prog.c"

declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)

define void @f(ptr %x, ptr %y) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %y
  ret void
}

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %tape = call ptr (...) @__enzyme_augmentfwd(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  call void (...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, metadata !"enzyme_const", ptr %y, ptr %tape)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_reverse call: its tape comes from an __enzyme_augmentfwd call that differs in its activities (augmented: @f [dup, dup]; reversed: @f [dup, const])
; CHECK-NEXT: note: give __enzyme_reverse the same function, activity markers and enzyme_allocated as the __enzyme_augmentfwd call that made the tape
; CHECK-NOT:  Traceback

