; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Memory through duplicated pointers.  The forward sweep computes shadow addresses next to the
; primal ones (a getelementptr on the shadow).  In reverse, a load's adjoint is accumulated into
; shadow memory (with the load's alignment); a store reads the adjoint of the location from the
; shadow, clears it, and passes it on to the stored value.  Storing a constant only clears.  The
; adjoints of %m, %a and %b are SSA values: no stack slot.

declare void @__enzyme_autodiff(...)

; out[0] = x[i] * x[0];  out[1] = 0
define void @f(ptr %x, ptr %out, i64 %i) {
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %a = load double, ptr %px, align 8
  %b = load double, ptr %x, align 4
  %m = fmul double %a, %b
  store double %m, ptr %out, align 8
  %o1 = getelementptr inbounds double, ptr %out, i64 1
  store double 0.0, ptr %o1, align 8
  ret void
}

define void @g(ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %i) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %i)
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[OUT:[^:]+]]: !llvm.ptr, %[[DOUT:[^:]+]]: !llvm.ptr, %[[I:[^:]+]]: i64)
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[PX:.*]] = llvm.getelementptr inbounds %[[X]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
; CHECK-NEXT:    %[[DPX:.*]] = llvm.getelementptr inbounds %[[DX]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
; CHECK-NEXT:    %[[A:.*]] = llvm.load %[[PX]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[B:.*]] = llvm.load %[[X]] {alignment = 4 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[A]], %[[B]] : f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[OUT]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    %[[O1:.*]] = llvm.getelementptr inbounds %[[OUT]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NEXT:    %[[DO1:.*]] = llvm.getelementptr inbounds %[[DOUT]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[O1]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:

; store 0.0 to out[1]: its shadow is cleared, nothing flows anywhere.
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z]], %[[DO1]] {alignment = 8 : i64} : f64, !llvm.ptr

; store %m to out[0]: read the shadow, clear it; that is the adjoint of %m.
; CHECK-NEXT:    %[[DM:.*]] = llvm.load %[[DOUT]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[Z2:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z2]], %[[DOUT]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    %[[DA:.*]] = llvm.fmul %[[DM]], %[[B]] : f64
; CHECK-NEXT:    %[[DB:.*]] = llvm.fmul %[[DM]], %[[A]] : f64

; The loads: adjoints into x's shadow, at the shadow addresses of the forward sweep.
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[DB]] {alignment = 4 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %[[DPX]], %[[DA]] {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    llvm.return
