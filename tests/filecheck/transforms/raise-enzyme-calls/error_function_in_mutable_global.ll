; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; A function pointer loaded from a global that the program may change is not known at compile
; time (only a constant global names one function); nor is an integer that is not the address
; of a function.

source_filename = "prog.rs"

@current = global ptr @f

declare double @__enzyme_autodiff(i64, ...)

define double @f(double %x) {
  ret double %x
}

define double @g(double %x) {
  %p = load ptr, ptr @current
  %i = ptrtoint ptr %p to i64
  %r = call double (i64, ...) @__enzyme_autodiff(i64 %i, double %x)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.rs: invalid __enzyme_autodiff call: the first argument must be a function known at compile time
; CHECK-NEXT: note: pass the function itself: its address (`(void *)f`), the address as an integer (`f as usize` in Rust), a cast of it, or a load from a constant global holding it
; CHECK-NOT:  Traceback
