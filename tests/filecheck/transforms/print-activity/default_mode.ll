; RUN: xenzyme-opt %s -p raise-enzyme-calls,print-activity | filecheck %s

; Without options, print-activity analyses each function that an autodiff request names, with
; that request's activities (here raised from an Enzyme call: %x active by default, %p
; duplicated, %c marked constant).  Functions nobody differentiates are left alone.

@enzyme_const = external global i32

declare double @__enzyme_autodiff(...)

define double @f(double %x, ptr %p, double %c) {
  %v = load double, ptr %p, align 8
  %m = fmul double %x, %v
  %k = fmul double %c, %c
  %r = fadd double %m, %k
  ret double %r
}

define double @other(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @g(double %x, ptr %p, ptr %dp, double %c) {
  %mk = load i32, ptr @enzyme_const
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, ptr %p, ptr %dp, i32 %mk, double %c)
  ret double %r
}

; CHECK-LABEL: llvm.func @f(
; CHECK-SAME:      attributes {arg_activity = ["active", "dup", "const"]}
; CHECK-NEXT:    %v = llvm.load %p {activity = ["active"], alignment = 8 : i64}
; CHECK-NEXT:    %m = llvm.fmul %x, %v {activity = ["active"]}
; CHECK-NEXT:    %k = llvm.fmul %c, %c {activity = ["const"]}
; CHECK-NEXT:    %r = llvm.fadd %m, %k {activity = ["active"]}
; CHECK-LABEL: llvm.func @other(
; CHECK-NOT:     activity
; CHECK-LABEL: llvm.func @g(
; CHECK-NOT:     activity =
; CHECK:         autodiff.autodiff @f
