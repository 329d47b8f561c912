; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; enzyme_allocated says how large the caller's memory for the tape is; enzyme_tape must say
; where that memory is.

source_filename = "prog.c"

declare void @__enzyme_augmentfwd(...)

define void @f(ptr %x) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %x
  ret void
}

define void @g(ptr %x, ptr %dx) {
  call void (...) @__enzyme_augmentfwd(ptr @f, metadata !"enzyme_allocated", i64 64, ptr %x, ptr %dx)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_augmentfwd call: enzyme_allocated needs enzyme_tape followed by the memory that holds the tape
; CHECK-NEXT: note: pass enzyme_allocated, size, enzyme_tape, buffer
; CHECK-NOT:  Traceback
