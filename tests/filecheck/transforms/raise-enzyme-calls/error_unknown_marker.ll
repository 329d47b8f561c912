; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; A global or metadata string starting with `enzyme_` is a marker; one that Enzyme does not
; define is an error that lists the known ones.

source_filename = "prog.c"

@enzyme_duplicate = external global i32

declare double @__enzyme_autodiff(...)

define double @f(ptr %p, double %x) {
  ret double %x
}

define double @g(ptr %p, ptr %dp, double %x) {
  %m = load i32, ptr @enzyme_duplicate
  %r = call double (...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %p, ptr %dp, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: unknown marker 'enzyme_duplicate'
; CHECK-NEXT: note: known markers: enzyme_const, enzyme_dup, enzyme_dupnoneed, enzyme_out
; CHECK-NOT:  Traceback
