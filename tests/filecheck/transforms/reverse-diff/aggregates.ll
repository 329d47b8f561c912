; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Aggregates: adjoints of structs and arrays are values of the same type.  extractvalue sends
; its adjoint into the field of the aggregate's adjoint; insertvalue splits its adjoint into the
; inserted value's (the field) and the rest (the field zeroed).  The aggregates' adjoints are
; stack slots; those of the fields taken out (%u, %v) and of the product are SSA values.

declare { double, double } @__enzyme_autodiff(...)

define double @f(double %x, double %y) {
  %a = insertvalue { double, [2 x double] } undef, double %x, 0
  %b = insertvalue { double, [2 x double] } %a, double %y, 1, 1
  %u = extractvalue { double, [2 x double] } %b, 0
  %v = extractvalue { double, [2 x double] } %b, 1, 1
  %r = fmul double %u, %v
  ret double %r
}

define { double, double } @g(double %x, double %y) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64)
; CHECK:         %d_b = llvm.alloca %{{.*}} x !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK:         %d_a = llvm.alloca %{{.*}} x !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NOT:     %d_{{[ruv]}} = llvm.alloca
; CHECK:         %[[U:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    %[[V:.*]] = llvm.extractvalue %{{.*}}[1, 1] : !llvm.struct<(f64, !llvm.array<2 x f64>)>

; r = u * v: d_u = seed * v, d_v = seed * u.
; CHECK:         %[[DU:.*]] = llvm.fmul %[[SEED]], %[[V]] : f64
; CHECK-NEXT:    %[[DV:.*]] = llvm.fmul %[[SEED]], %[[U]] : f64

; extractvalue %b[1, 1] and %b[0]: zero aggregates with the adjoint in that field.
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.zero : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    %[[E1:.*]] = llvm.insertvalue %[[DV]], %[[Z1]][1, 1] : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    autodiff.accumulate %d_b, %[[E1]] : !llvm.ptr, !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    %[[Z2:.*]] = llvm.mlir.zero : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    %[[E2:.*]] = llvm.insertvalue %[[DU]], %[[Z2]][0] : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    autodiff.accumulate %d_b, %[[E2]] : !llvm.ptr, !llvm.struct<(f64, !llvm.array<2 x f64>)>

; insertvalue %a, %y, [1, 1]: %y gets that field, %a the rest.
; CHECK:         %[[DB:.*]] = llvm.load %d_b : !llvm.ptr -> !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK:         %[[FY:.*]] = llvm.extractvalue %[[DB]][1, 1] : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[FY]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[Z3:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[REST:.*]] = llvm.insertvalue %[[Z3]], %[[DB]][1, 1] : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    autodiff.accumulate %d_a, %[[REST]] : !llvm.ptr, !llvm.struct<(f64, !llvm.array<2 x f64>)>

; insertvalue undef, %x, [0]: undef has no adjoint.
; CHECK:         %[[DA:.*]] = llvm.load %d_a : !llvm.ptr -> !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK:         %[[FX:.*]] = llvm.extractvalue %[[DA]][0] : !llvm.struct<(f64, !llvm.array<2 x f64>)>
; CHECK-NEXT:    autodiff.accumulate %d_x, %[[FX]] : !llvm.ptr, f64
; CHECK-NOT:     autodiff.accumulate
; CHECK:         %[[GX:.*]] = llvm.load %d_x : !llvm.ptr -> f64
; CHECK:         %[[GY:.*]] = llvm.load %d_y : !llvm.ptr -> f64
; CHECK:         %[[S0:.*]] = llvm.insertvalue %[[GX]], %{{.*}}[0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[GY]], %[[S0]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[S1]]
