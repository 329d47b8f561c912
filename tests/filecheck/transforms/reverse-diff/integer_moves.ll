; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; A double's bits moved as an integer -- loaded as i64 only to become the double again, or made
; an i64 only to be stored -- are the double: its adjoint moves with it.  (Without this the
; gradient would be silently zero.)

declare void @__enzyme_autodiff(...)

define double @f(ptr %p, ptr %q) {
  %i = load i64, ptr %p, align 8
  %d = bitcast i64 %i to double
  %m = fmul double %d, 2.0
  %b = bitcast double %m to i64
  store i64 %b, ptr %q, align 8
  %r = load double, ptr %q, align 8
  %s = fmul double %r, %d
  ret double %s
}

define void @g(ptr %p, ptr %dp, ptr %q, ptr %dq) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, ptr %q, ptr %dq)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr, %[[Q:[^:]+]]: !llvm.ptr, %[[DQ:[^:]+]]: !llvm.ptr
; CHECK:         %[[D:.*]] = llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         llvm.store %{{.*}}, %[[Q]] {alignment = 8 : i64} : f64, !llvm.ptr
; The store's adjoint is read from q's shadow and cleared there ...
; CHECK:         %[[DS:.*]] = llvm.load %[[DQ]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[DQ]] {alignment = 8 : i64} : f64, !llvm.ptr
; ... and the load's reaches p's shadow.
; CHECK:         autodiff.accumulate %[[DP]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NOT:     llvm.bitcast
