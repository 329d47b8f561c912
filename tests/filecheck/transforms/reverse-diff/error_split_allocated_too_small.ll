; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; The tape of @f holds the loaded value (the caller may overwrite *x between the halves), 8
; bytes; a buffer of 4 bytes is too small, which is known at compile time.

source_filename = "prog.c"

declare void @__enzyme_reverse(...)

define void @f(ptr %x) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %x
  ret void
}

define void @g(ptr %x, ptr %dx, ptr %buf) {
  call void (...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, metadata !"enzyme_allocated", i32 4, metadata !"enzyme_tape", ptr %buf)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_reverse call: the tape of @f needs 8 bytes, enzyme_allocated gives 4
; CHECK-NEXT: note: allocate __enzyme_augmentsize((void *)f, <the same activity markers>) bytes and pass that size
; CHECK-NOT:  Traceback
