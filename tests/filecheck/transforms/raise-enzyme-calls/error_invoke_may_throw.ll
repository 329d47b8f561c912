; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; An invoked request for a function that may throw: the derivative could throw too, and an
; exception leaving it would skip the caller's handler.  That is an error with what to do.

source_filename = "prog.cpp"

declare double @__enzyme_autodiff(...)
declare i32 @__gxx_personality_v0(...)
declare void @log_value(double)

define double @f(double %x) {
  call void @log_value(double %x)
  %m = fmul double %x, %x
  ret double %m
}

define double @g(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke double (...) @__enzyme_autodiff(ptr @f, double %x) to label %ok unwind label %lpad
ok:
  ret double %r
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK:      xenzyme-opt: error: prog.cpp: invalid __enzyme_autodiff call: the request is an invoke (it has an exception handler or cleanups), and @f may throw: exceptions through derivatives are not supported
; CHECK-NEXT: note: declare @f noexcept, or let LLVM's optimiser infer that it cannot throw first (the enzyme pipeline does)
; CHECK-NOT:  Traceback
