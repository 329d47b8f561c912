; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; A struct holding a pointer and an active double, passed by value to a function that is not
; inlined: its shadow would have to travel in a struct of shadows, which is not supported.
; (Structs of floats by value are: see tests/test_aggregate_calls.py.)

source_filename = "prog.c"

declare void @__enzyme_autodiff(...)

define double @load_scaled({ ptr, double } %s) noinline {
  %p = extractvalue { ptr, double } %s, 0
  %k = extractvalue { ptr, double } %s, 1
  %v = load double, ptr %p
  %r = fmul double %v, %k
  ret double %r
}

define double @f(ptr %x, double %k) {
  %s0 = insertvalue { ptr, double } undef, ptr %x, 0
  %s1 = insertvalue { ptr, double } %s0, double %k, 1
  %r = call double @load_scaled({ ptr, double } %s1)
  ret double %r
}

define void @g(ptr %x, ptr %dx, double %k) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, double %k)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: @load_scaled takes by value an aggregate that holds a pointer and carries derivatives, which is not supported yet
; CHECK-NEXT: note: in: %r = call double @load_scaled({ ptr, double } %s1)
; CHECK-NEXT: note: pass it through a pointer
; CHECK-NOT:  Traceback
