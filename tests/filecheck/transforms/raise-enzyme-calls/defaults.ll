; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

; Enzyme's defaults for unmarked arguments: floating point (scalars and vectors) is active, a
; pointer is duplicated with the next argument as its shadow, an integer is constant.  The return
; activity follows the callee: a floating-point return is active (seeded with 1.0), void is none,
; anything else is constant.

declare double @__enzyme_autodiff(...)
declare void @__enzyme_autodiff_void(...)

define double @f(double %x, ptr %p, i64 %n, float %y, <2 x double> %v) {
  ret double %x
}

define i32 @count(ptr %p, float %y) {
  ret i32 0
}

define void @update(ptr %p, i1 %flag) {
  ret void
}

define double @all_unmarked(double %x, ptr %p, ptr %dp, i64 %n, float %y, <2 x double> %v) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, ptr %p, ptr %dp, i64 %n, float %y, <2 x double> %v)
  ret double %r
}

; Three active arguments: their derivatives come back as a struct, in argument order.
; CHECK-LABEL: llvm.func @all_unmarked(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i64, %[[Y:[^:]+]]: f32, %[[V:[^:]+]]: vector<2xf64>) -> f64 {
; CHECK:         autodiff.autodiff @f(%[[X]], %[[P]], %[[DP]], %[[N]], %[[Y]], %[[V]]) activity [active, dup, const, active, active] ret active
; CHECK-SAME:        : (f64, !llvm.ptr, !llvm.ptr, i64, f32, vector<2xf64>) -> !llvm.struct<(f64, f32, vector<2xf64>)>

define void @integer_return(ptr %p, ptr %dp, float %y) {
  call void (...) @__enzyme_autodiff_void(ptr @count, ptr %p, ptr %dp, float %y)
  ret void
}

; CHECK-LABEL: llvm.func @integer_return(
; CHECK-SAME:      %[[P2:[^:]+]]: !llvm.ptr, %[[DP2:[^:]+]]: !llvm.ptr, %[[Y2:[^:]+]]: f32) {
; CHECK:         autodiff.autodiff @count(%[[P2]], %[[DP2]], %[[Y2]]) activity [dup, active] ret const : (!llvm.ptr, !llvm.ptr, f32) -> f32

define void @void_return(ptr %p, ptr %dp) {
  call void (...) @__enzyme_autodiff_void(ptr @update, ptr %p, ptr %dp, i1 true)
  ret void
}

; No active argument: the request has no result.
; CHECK-LABEL: llvm.func @void_return(
; CHECK-SAME:      %[[P3:[^:]+]]: !llvm.ptr, %[[DP3:[^:]+]]: !llvm.ptr) {
; CHECK:         autodiff.autodiff @update(%[[P3]], %[[DP3]], %{{.*}}) activity [dup, const] ret none : (!llvm.ptr, !llvm.ptr, i1) -> ()
