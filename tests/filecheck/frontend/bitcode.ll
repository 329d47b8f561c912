; RUN: %llvm-verify %s --bitcode -o %t.bc
; RUN: xenzyme-opt %t.bc | filecheck %s
; RUN: xenzyme-opt %t.bc -t llvm | filecheck %s --check-prefix=LLVM

; Bitcode input reads like the text it was written from.

@scale = internal global double 2.5

define double @f(double %x) {
  %s = load double, ptr @scale, align 8
  %y = fmul fast double %x, %s
  ret double %y
}

; CHECK:      llvm.mlir.global internal @scale(2.500000e+00 : f64)
; CHECK-LABEL: llvm.func @f(%x: f64) -> f64 {
; CHECK:        %s = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:   %y = llvm.fmul %x, %s {fastmathFlags = #llvm.fastmath<fast>} : f64

; LLVM-LABEL: define double @f(double %x) {
; LLVM-NEXT:    %s = load double, ptr @scale, align 8
; LLVM-NEXT:    %y = fmul fast double %x, %s
