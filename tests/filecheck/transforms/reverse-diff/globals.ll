; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Globals.  A mutable global that comes to hold active data gets a shadow global @<name>.shadow,
; zero-initialised and internal, which receives the adjoints of what is stored there.  Globals
; that only feed inactive data (@scale is only read, @table is constant) get no shadow.

@scale = global double 2.0, align 8
@table = constant [2 x double] [double 1.0, double 3.0], align 8
@state = global double 0.0, align 8

declare double @__enzyme_autodiff(...)

define double @f(double %x) {
  %s = load double, ptr @scale, align 8
  %c = load double, ptr getelementptr inbounds ([2 x double], ptr @table, i64 0, i64 1), align 8
  %xs = fmul double %x, %s
  store double %xs, ptr @state, align 8
  %v = load double, ptr @state, align 8
  %r = fmul double %v, %c
  ret double %r
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK:       llvm.mlir.global external @state(0.000000e+00 : f64)
; CHECK-NEXT:  llvm.mlir.global internal @state.shadow(0.000000e+00 : f64) {addr_space = 0 : i32, alignment = 8 : i64} : f64
; CHECK-NOT:   @scale.shadow
; CHECK-NOT:   @table.shadow

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[SEED:[^:]+]]: f64) -> f64
; CHECK:         %[[DXSLOT:d_x]] = llvm.alloca
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[SHADOW:.*]] = llvm.mlir.addressof @state.shadow : !llvm.ptr
; CHECK:         %[[S:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[C:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64

; r = v * c: c from the constant table, directly.
; CHECK:         llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:
; CHECK-NEXT:    %[[DV:.*]] = llvm.fmul %[[SEED]], %[[C]] : f64

; v = load @state: into the shadow global.  store %xs, @state: read and clear it.
; CHECK-NEXT:    autodiff.accumulate %[[SHADOW]], %[[DV]] {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    %[[DXS:.*]] = llvm.load %[[SHADOW]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z]], %[[SHADOW]] {alignment = 8 : i64} : f64, !llvm.ptr

; xs = x * s: s is inactive, used directly.
; CHECK-NEXT:    %[[DX:.*]] = llvm.fmul %[[DXS]], %[[S]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DXSLOT]], %[[DX]] : !llvm.ptr, f64
; CHECK-NOT:     autodiff.accumulate
; CHECK:         %[[G:.*]] = llvm.load %[[DXSLOT]] : !llvm.ptr -> f64
; CHECK:         llvm.return %[[G]] : f64
