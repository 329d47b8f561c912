; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; A memcpy of two floats between arguments, as LLVM leaves it: one i64 loaded, stored to the
; destination, and taken apart into the floats (`trunc`, `lshr 32`, `bitcast`).  The load is a
; load of <2 x float>, the store a store of it, and the halves its elements, so the adjoints of
; both floats reach the source's shadow.  (Without this both derivatives are silently zero.)

declare void @__enzyme_autodiff(...)

define double @f(ptr %x, ptr %c) {
  %v = load i64, ptr %x, align 4
  store i64 %v, ptr %c, align 4
  %lo = trunc i64 %v to i32
  %a = bitcast i32 %lo to float
  %hi.s = lshr i64 %v, 32
  %hi = trunc i64 %hi.s to i32
  %b = bitcast i32 %hi to float
  %ad = fpext float %a to double
  %bd = fpext float %b to double
  %m = fmul double %ad, %bd
  ret double %m
}

define void @g(ptr %x, ptr %dx, ptr %c, ptr %dc) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %c, ptr %dc)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: !llvm.ptr, %[[DC:[^:]+]]: !llvm.ptr
; CHECK:         %[[V:.*]] = llvm.load %[[X]] {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
; CHECK:         llvm.store %[[V]], %[[C]] {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
; CHECK-DAG:     llvm.extractelement %[[V]][%{{.*}} : i64] : vector<2xf32>
; CHECK-DAG:     llvm.extractelement %[[V]][%{{.*}} : i64] : vector<2xf32>
; CHECK-NOT:     llvm.lshr
; The elements' adjoints are put back into a vector, c's shadow adds the store's adjoint and is
; cleared, and the sum reaches x's shadow.
; CHECK:         %[[E1:.*]] = llvm.insertelement %{{.*}}[%{{.*}} : i64] : vector<2xf32>
; CHECK:         %[[E0:.*]] = llvm.insertelement %{{.*}}[%{{.*}} : i64] : vector<2xf32>
; CHECK:         %[[ES:.*]] = llvm.fadd %[[E1]], %[[E0]] : vector<2xf32>
; CHECK:         %[[DS:.*]] = llvm.load %[[DC]] {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
; CHECK:         llvm.store %{{.*}}, %[[DC]] {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
; CHECK:         %[[SUM:.*]] = llvm.fadd %[[ES]], %[[DS]] : vector<2xf32>
; CHECK:         autodiff.accumulate %[[DX]], %[[SUM]] {alignment = 4 : i64} : !llvm.ptr, vector<2xf32>
