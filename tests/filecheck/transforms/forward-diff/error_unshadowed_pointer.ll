; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; A constant pointer to doubles stored into a struct that has a shadow: the shadow struct would
; hold the primal pointer, and tangents would be read through the primal data.

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)
@enzyme_dup = external global i32
@enzyme_const = external global i32

define internal double @use(ptr %s) noinline {
  %d = load ptr, ptr %s
  %x = load double, ptr %d
  %p = getelementptr i8, ptr %s, i64 8
  %c = load double, ptr %p
  %r = fmul double %x, %c
  ret double %r
}

define internal double @f(ptr %s, ptr %w) {
  store ptr %w, ptr %s
  %r = call double @use(ptr %s)
  ret double %r
}

define double @df(ptr %s, ptr %ds, ptr %w) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %s, ptr %ds, ptr @enzyme_const, ptr %w)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: a pointer without a shadow (to memory that may hold floating-point data) is stored into memory that has one: tangents would be read and written through it in the primal data
; CHECK-NEXT: note: in: store ptr %w, ptr %s
; CHECK-NEXT: note: pass the memory it points to with a shadow (enzyme_dup), or keep that pointer out of the memory with derivatives (a separate argument or struct)
; CHECK-NOT:  Traceback
