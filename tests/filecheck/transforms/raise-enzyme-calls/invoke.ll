; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s
; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff,lower-autodiff -t llvm | filecheck %s --check-prefix=LLVM

; C++ calls __enzyme_autodiff with `invoke` when the call has cleanups (a local std::vector) or
; sits in a try block.  The request is raised all the same: the invoke becomes a call and a
; branch to its normal destination, and a landing pad nothing else unwinds to is removed.
; That is exact because @f cannot throw (nounwind), so neither can its derivative.  (Such
; invokes used to stay calls of the undefined __enzyme_autodiff, and linking failed.)

source_filename = "prog.cpp"

declare double @__enzyme_autodiff(...)
declare i32 @__gxx_personality_v0(...)
declare void @cleanup(ptr)

define double @f(double %x) nounwind {
  %m = fmul double %x, %x
  ret double %m
}

define double @g(double %x, ptr %obj) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke double (...) @__enzyme_autodiff(ptr @f, double %x) to label %ok unwind label %lpad
ok:
  call void @cleanup(ptr %obj)
  ret double %r
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @cleanup(ptr %obj)
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: llvm.func @g(
; CHECK:         %[[R:.*]] = autodiff.autodiff @f(%{{.*}}) activity [active] ret active : (f64) -> f64
; CHECK-NEXT:    llvm.br ^[[OK:.*]]
; CHECK-NEXT:  ^[[OK]]:
; CHECK-NEXT:    llvm.call @cleanup(
; CHECK-NEXT:    llvm.return %[[R]] : f64
; CHECK-NEXT:  }
; CHECK-NOT:   llvm.func @__enzyme_autodiff

; LLVM-LABEL: define double @g(double %x, ptr %obj) personality ptr @__gxx_personality_v0
; LLVM-NEXT:  entry:
; LLVM-NEXT:    %r = call double @diffef(double %x, double 1.000000e+00)
; LLVM-NEXT:    br label %ok
; LLVM-NOT:     landingpad
; LLVM:         ret double %r
; LLVM-NEXT:  }
