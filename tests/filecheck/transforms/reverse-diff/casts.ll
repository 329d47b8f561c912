; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Float casts: the adjoint of an fpext is truncated back to the source type, that of an fptrunc
; extended.  Integer code and int-to-float conversions carry no derivative: %k gets no adjoint,
; and the multiplication by it only scales the adjoint of %p.  The results' adjoints are SSA
; values; only the arguments %x and %y have adjoint slots.

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
; CHECK:         %[[DYSLOT:d_y]] = llvm.alloca %{{.*}} x f64
; CHECK:         %[[DXSLOT:d_x]] = llvm.alloca %{{.*}} x f32
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[E:.*]] = llvm.fpext %[[X]] : f32 to f64
; CHECK-NEXT:    %[[T:.*]] = llvm.fptrunc %[[Y]] : f64 to f32
; CHECK-NEXT:    %[[TE:.*]] = llvm.fpext %[[T]] : f32 to f64
; CHECK-NEXT:    %[[N2:.*]] = llvm.mul %[[N]], %[[N]] : i32
; CHECK-NEXT:    %[[K:.*]] = llvm.sitofp %[[N2]] : i32 to f64
; CHECK:         llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:
; CHECK-NEXT:    %[[DP:.*]] = llvm.fmul %[[SEED]], %[[K]] : f64
; CHECK-NEXT:    %[[DE:.*]] = llvm.fmul %[[DP]], %[[TE]] : f64
; CHECK-NEXT:    %[[DTE:.*]] = llvm.fmul %[[DP]], %[[E]] : f64

; d/d%te, then through fpext (truncate) and fptrunc (extend) to %y.
; CHECK-NEXT:    %[[DT:.*]] = llvm.fptrunc %[[DTE]] : f64 to f32
; CHECK-NEXT:    %[[DY:.*]] = llvm.fpext %[[DT]] : f32 to f64
; CHECK-NEXT:    autodiff.accumulate %[[DYSLOT]], %[[DY]] : !llvm.ptr, f64

; d/d%e, truncated to the f32 of %x.
; CHECK-NEXT:    %[[DX:.*]] = llvm.fptrunc %[[DE]] : f64 to f32
; CHECK-NEXT:    autodiff.accumulate %[[DXSLOT]], %[[DX]] : !llvm.ptr, f32
; CHECK-NOT:     llvm.sitofp
; CHECK:         %[[GX:.*]] = llvm.load %[[DXSLOT]] : !llvm.ptr -> f32
; CHECK:         %[[GY:.*]] = llvm.load %[[DYSLOT]] : !llvm.ptr -> f64
; CHECK:         %[[S0:.*]] = llvm.insertvalue %[[GX]], %{{.*}}[0] : !llvm.struct<(f32, f64)>
; CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[GY]], %[[S0]][1] : !llvm.struct<(f32, f64)>
; CHECK-NEXT:    llvm.return %[[S1]] : !llvm.struct<(f32, f64)>
