; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; The same for a struct the function returns through a hidden sret pointer.

source_filename = "prog.c"

%struct.pair = type { double, double }

declare void @__enzyme_autodiff(...)

define void @f(ptr sret(%struct.pair) %out, double %x) {
  store double %x, ptr %out
  ret void
}

define void @g(ptr %o, ptr %do, double %x) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %o, ptr %do, double %x)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: @f returns a struct through a hidden pointer, which reverse mode cannot seed
; CHECK-NEXT: note: return a single double, or write the results to an output array passed with enzyme_dup, whose shadow is the seed
; CHECK-NOT:  Traceback
