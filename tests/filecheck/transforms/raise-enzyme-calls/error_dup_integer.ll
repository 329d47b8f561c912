; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; enzyme_dup on an integer (here an address held in an intptr_t): reverse mode gives shadows to
; pointers only, so the request is an error.  It used to be accepted, and the derivative written
; through the pointer the integer holds was silently lost (dx stayed 0).

source_filename = "prog.c"

@enzyme_dup = external global i32

declare void @__enzyme_autodiff(...)

define double @f(i64 %p) {
  %q = inttoptr i64 %p to ptr
  %v = load double, ptr %q
  %m = fmul double %v, %v
  ret double %m
}

define void @g(i64 %p, i64 %dp) {
  %d = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @f, i32 %d, i64 %p, i64 %dp)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: argument 0 (i64) is marked enzyme_dup but is not a pointer: reverse mode gives shadows to pointers only
; CHECK-NEXT: note: mark integers enzyme_const; pass an address held in an integer as a pointer
; CHECK-NOT:  Traceback
