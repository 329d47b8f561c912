; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Float casts: the adjoint of an fpext is truncated back to the source type, that of an fptrunc
; extended.  Integer code and int-to-float conversions carry no derivative: %k gets no adjoint
; slot, and the multiplication by it only scales the adjoint of %p.

declare { float, double } @__enzyme_autodiff(...)

define double @f(float %x, double %y, i32 %n) {
  %e = fpext float %x to double
  %t = fptrunc double %y to float
  %te = fpext float %t to double
  %n2 = mul i32 %n, %n
  %k = sitofp i32 %n2 to double
  %p = fmul double %e, %te
  %q = fmul double %p, %k
  ret double %q
}

define { float, double } @g(float %x, double %y, i32 %n) {
  %r = call { float, double } (...) @__enzyme_autodiff(ptr @f, float %x, double %y, i32 %n)
  ret { float, double } %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f64, %[[N:[^:]+]]: i32, %[[SEED:[^:]+]]: f64) -> !llvm.struct<(f32, f64)>
; CHECK-NOT:     %d_k = llvm.alloca
; CHECK-NOT:     %d_n2 = llvm.alloca
; CHECK:         %[[E:.*]] = llvm.fpext %[[X]] : f32 to f64
; CHECK-NEXT:    %[[T:.*]] = llvm.fptrunc %[[Y]] : f64 to f32
; CHECK-NEXT:    %[[TE:.*]] = llvm.fpext %[[T]] : f32 to f64
; CHECK-NEXT:    %[[N2:.*]] = llvm.mul %[[N]], %[[N]] : i32
; CHECK-NEXT:    %[[K:.*]] = llvm.sitofp %[[N2]] : i32 to f64
; CHECK:         %[[DQ:.*]] = llvm.load %d_q : !llvm.ptr -> f64
; CHECK:         %[[DP:.*]] = llvm.fmul %[[DQ]], %[[K]] : f64
; CHECK-NEXT:    autodiff.accumulate %d_p, %[[DP]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DPV:.*]] = llvm.load %d_p : !llvm.ptr -> f64

; d/d%te, then through fpext (truncate) and fptrunc (extend) to %y.
; CHECK:         %[[DTEV:.*]] = llvm.load %d_te : !llvm.ptr -> f64
; CHECK:         %[[DT:.*]] = llvm.fptrunc %[[DTEV]] : f64 to f32
; CHECK-NEXT:    autodiff.accumulate %d_t, %[[DT]] : !llvm.ptr, f32
; CHECK-NEXT:    %[[DTV:.*]] = llvm.load %d_t : !llvm.ptr -> f32
; CHECK:         %[[DY:.*]] = llvm.fpext %[[DTV]] : f32 to f64
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[DY]] : !llvm.ptr, f64

; d/d%e, truncated to the f32 of %x.
; CHECK:         %[[DEV:.*]] = llvm.load %d_e : !llvm.ptr -> f64
; CHECK:         %[[DX:.*]] = llvm.fptrunc %[[DEV]] : f64 to f32
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[DX]] : !llvm.ptr, f32
; CHECK-NOT:     llvm.sitofp
; CHECK:         llvm.return %{{.*}} : !llvm.struct<(f32, f64)>
