; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The size after enzyme_allocated must be known at compile time (a constant, or what
; __enzyme_augmentsize returns): xenzyme checks then that the tape fits in the caller's memory.

source_filename = "prog.c"

@enzyme_allocated = external global i32
@enzyme_tape = external global i32

declare void @__enzyme_augmentfwd(...)

define void @f(ptr %x) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %x
  ret void
}

define void @g(ptr %x, ptr %dx, ptr %buf, i64 %n) {
  %a = load i32, ptr @enzyme_allocated
  %t = load i32, ptr @enzyme_tape
  call void (...) @__enzyme_augmentfwd(ptr @f, i32 %a, i64 %n, i32 %t, ptr %buf, ptr %x, ptr %dx)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_augmentfwd call: the size after enzyme_allocated must be a compile-time constant
; CHECK-NEXT: note: write a constant (or the result of __enzyme_augmentsize) there
; CHECK-NOT:  Traceback
