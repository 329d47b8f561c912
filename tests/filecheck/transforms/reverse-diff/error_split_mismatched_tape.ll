; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; A tape laid out in an enzyme_allocated buffer is the tape itself, not a pointer to one: the
; reverse must say enzyme_allocated too (here it reads the buffer as a slot holding a pointer).

source_filename = "prog.c"

declare void @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)

define void @f(ptr %x, ptr %y) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %y
  ret void
}

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %buf) {
  call void (...) @__enzyme_augmentfwd(ptr @f, metadata !"enzyme_allocated", i64 64, metadata !"enzyme_tape", ptr %buf, ptr %x, ptr %dx, ptr %y, ptr %dy)
  call void (...) @__enzyme_reverse(ptr @f, metadata !"enzyme_tape", ptr %buf, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_reverse call: its tape comes from an __enzyme_augmentfwd call that differs in its kind of tape (augmented: @f [dup, dup], tape in an enzyme_allocated buffer; reversed: @f [dup, dup], tape through enzyme_tape)
; CHECK-NOT:  Traceback
