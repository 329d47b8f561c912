; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; A call through a function pointer with an argument that has a tangent, where no function of the
; module of the call's type has its address taken: there is no candidate to differentiate.

source_filename = "prog.c"

@enzyme_const = external global i32

declare double @__enzyme_fwddiff(...)

define double @f(double %x, ptr %fp) {
  %r = call double %fp(double %x)
  ret double %r
}

define double @g(double %x, ptr %fp) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, ptr @enzyme_const, ptr %fp)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: an indirect call (through a function pointer) has active arguments, but no function of this module of its type (f64 (f64)) has its address taken
; CHECK-NEXT: note: in: %r = call double %fp(double %x)
; CHECK-NEXT: note: pass the address of a function defined in this module (its derivative is generated), or mark the arguments enzyme_const
; CHECK-NOT:  Traceback
