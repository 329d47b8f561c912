; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

; Argument markers as metadata strings, the spelling other frontends (and hand-written IR) use:
; `metadata !"enzyme_dup"` before an argument marks it the way the global `enzyme_dup` does.

declare void @__enzyme_autodiff(...)
declare double @__enzyme_autodiff_md(...)

define void @f(ptr %p, double %x, i32 %n) {
  ret void
}

define double @h(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define void @g(ptr %p, ptr %dp, double %x, i32 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %p, ptr %dp, metadata !"enzyme_const", double %x, metadata !"enzyme_const", i32 %n)
  ret void
}

; CHECK-LABEL: llvm.func @g(
; CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: f64, %[[N:[^:]+]]: i32) {
; CHECK:         autodiff.autodiff @f(%[[P]], %[[DP]], %[[X]], %[[N]]) activity [dup, const, const] ret none
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, f64, i32) -> ()
; CHECK-NEXT:    llvm.return

; Any callee whose name contains __enzyme_autodiff is a request; enzyme_out and
; enzyme_dupnoneed have metadata spellings too.

define double @k(ptr %p, ptr %dp, double %x, double %y) {
  call void (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dupnoneed", ptr %p, ptr %dp, double %x, i32 3)
  %r = call double (...) @__enzyme_autodiff_md(ptr @h, metadata !"enzyme_const", double %x, metadata !"enzyme_out", double %y)
  ret double %r
}

; CHECK-LABEL: llvm.func @k(
; CHECK-SAME:      %[[P2:[^:]+]]: !llvm.ptr, %[[DP2:[^:]+]]: !llvm.ptr, %[[X2:[^:]+]]: f64, %[[Y2:[^:]+]]: f64) -> f64 {
; CHECK:         %{{.*}} = autodiff.autodiff @f(%[[P2]], %[[DP2]], %[[X2]], %{{.*}}) activity [dupnoneed, active, const] ret none : (!llvm.ptr, !llvm.ptr, f64, i32) -> f64
; CHECK-NEXT:    %[[R:.*]] = autodiff.autodiff @h(%[[X2]], %[[Y2]]) activity [const, active] ret active : (f64, f64) -> f64
; CHECK-NEXT:    llvm.return %[[R]] : f64
