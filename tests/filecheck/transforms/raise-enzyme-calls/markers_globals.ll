; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

; Argument markers as C globals: clang loads `int enzyme_dup;` and passes the value just before
; the argument it marks.  Each marker sets the activity of the next argument; dup and dupnoneed
; take a shadow after the primal.  The loads stay (LLVM removes them later); the call and the
; declaration of __enzyme_autodiff go.

@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32

declare double @__enzyme_autodiff(...)

define double @f(ptr %p, ptr %q, double %x, double %y, i32 %n) {
  ret double %x
}

define double @g(ptr %p, ptr %dp, ptr %q, ptr %dq, double %x, double %y, i32 %n) {
  %m0 = load i32, ptr @enzyme_dup, align 4
  %m1 = load i32, ptr @enzyme_dupnoneed, align 4
  %m2 = load i32, ptr @enzyme_const, align 4
  %m3 = load i32, ptr @enzyme_out, align 4
  %m4 = load i32, ptr @enzyme_const, align 4
  %r = call double (...) @__enzyme_autodiff(ptr @f, i32 %m0, ptr %p, ptr %dp, i32 %m1, ptr %q, ptr %dq, i32 %m2, double %x, i32 %m3, double %y, i32 %m4, i32 %n)
  ret double %r
}

; CHECK-NOT:   __enzyme_autodiff
; CHECK-LABEL: llvm.func @g(
; CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr, %[[Q:[^:]+]]: !llvm.ptr, %[[DQ:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[N:[^:]+]]: i32) -> f64 {
; CHECK-NOT:     llvm.call
; CHECK:         %[[R:.*]] = autodiff.autodiff @f(%[[P]], %[[DP]], %[[Q]], %[[DQ]], %[[X]], %[[Y]], %[[N]]) activity [dup, dupnoneed, const, active, const] ret active
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, f64, f64, i32) -> f64
; CHECK-NEXT:    llvm.return %[[R]] : f64
; CHECK-NOT:   __enzyme_autodiff
