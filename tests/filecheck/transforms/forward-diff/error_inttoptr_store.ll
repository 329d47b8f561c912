; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; An address computed as an integer loses the pointer's shadow.

source_filename = "prog.c"

declare void @__enzyme_fwddiff(...)

define void @f(ptr %p, double %x) {
  %i = ptrtoint ptr %p to i64
  %j = add i64 %i, 8
  %q = inttoptr i64 %j to ptr
  store double %x, ptr %q
  ret void
}

define void @g(ptr %p, ptr %dp, double %x) {
  call void (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, double %x, double 1.0)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: a value with a derivative is stored through a pointer computed from an integer (inttoptr), which forward mode cannot give a shadow
; CHECK-NEXT: note: in: store double %x, ptr %q, align 8
; CHECK-NEXT: note: compute addresses with getelementptr on the pointer, not through ptrtoint/inttoptr
; CHECK-NOT:  Traceback
