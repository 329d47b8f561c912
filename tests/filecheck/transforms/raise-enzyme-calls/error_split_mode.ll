; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The split-mode entry points are Enzyme's but not (yet) xenzyme's: a call to one is an error at
; the call, instead of an undefined symbol when the program is linked.

source_filename = "prog.c"

@enzyme_dup = global i32 0

declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)

define void @f(ptr %x) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %x
  ret void
}

define void @g(ptr %x, ptr %dx) {
  %m = load i32, ptr @enzyme_dup
  %tape = call ptr (...) @__enzyme_augmentfwd(ptr @f, i32 %m, ptr %x, ptr %dx)
  call void (...) @__enzyme_reverse(ptr @f, i32 %m, ptr %x, ptr %dx, ptr %tape)
  ret void
}

; CHECK: xenzyme-opt: error: prog.c: __enzyme_augmentfwd (split mode) is not supported yet
; CHECK-NEXT: note: use __enzyme_autodiff, which runs the forward and the reverse sweep in one call
