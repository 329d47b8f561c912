; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Integer and float arithmetic keep their wrap, exact, disjoint and fast-math flags.

define i32 @int_ops(i32 %a, i32 %b) {
  %add = add nuw nsw i32 %a, %b
  %sub = sub nsw i32 %add, 1
  %mul = mul nuw i32 %sub, %b
  %udiv = udiv exact i32 %mul, 4
  %sdiv = sdiv i32 %udiv, %b
  %urem = urem i32 %sdiv, 7
  %srem = srem i32 %urem, %a
  %and = and i32 %srem, 255
  %or = or disjoint i32 %and, 256
  %xor = xor i32 %or, -1
  %shl = shl nuw i32 %xor, 2
  %lshr = lshr exact i32 %shl, 1
  %ashr = ashr i32 %lshr, %b
  ret i32 %ashr
}
; CHECK-LABEL: llvm.func @int_ops(%a: i32, %b: i32) -> i32 {
; CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK:         %add = llvm.add %a, %b overflow<nsw,nuw> : i32
; CHECK-NEXT:    %sub = llvm.sub %add, %[[ONE]] overflow<nsw> : i32
; CHECK-NEXT:    %mul = llvm.mul %sub, %b overflow<nuw> : i32
; CHECK-NEXT:    %udiv = llvm.udiv exact %mul, %{{.*}} : i32
; CHECK-NEXT:    %sdiv = llvm.sdiv %udiv, %b : i32
; CHECK-NEXT:    %urem = llvm.urem %sdiv, %{{.*}} : i32
; CHECK-NEXT:    %srem = llvm.srem %urem, %a : i32
; CHECK-NEXT:    %and = llvm.and %srem, %{{.*}} : i32
; CHECK-NEXT:    %or = llvm.or disjoint %and, %{{.*}} : i32
; CHECK-NEXT:    %xor = llvm.xor %or, %{{.*}} : i32
; CHECK-NEXT:    %shl = llvm.shl %xor, %{{.*}} overflow<nuw> : i32
; CHECK-NEXT:    %lshr = llvm.lshr exact %shl, %{{.*}} : i32
; CHECK-NEXT:    %ashr = llvm.ashr %lshr, %b : i32
; CHECK-NEXT:    llvm.return %ashr : i32

; LLVM-LABEL: define i32 @int_ops(i32 %a, i32 %b)
; LLVM-NEXT:    %add = add nuw nsw i32 %a, %b
; LLVM-NEXT:    %sub = sub nsw i32 %add, 1
; LLVM-NEXT:    %mul = mul nuw i32 %sub, %b
; LLVM-NEXT:    %udiv = udiv exact i32 %mul, 4
; LLVM:         %or = or disjoint i32 %and, 256
; LLVM-NEXT:    %xor = xor i32 %or, -1
; LLVM-NEXT:    %shl = shl nuw i32 %xor, 2
; LLVM-NEXT:    %lshr = lshr exact i32 %shl, 1

define double @float_ops(double %x, double %y, <2 x float> %v) {
  %fa = fadd fast double %x, %y
  %fb = fsub nnan nsz double %fa, 1.5
  %fc = fmul contract double %fb, %y
  %fd = fdiv arcp afn double %fc, %x
  %fe = frem reassoc double %fd, 2.0
  %ff = fneg ninf double %fe
  %fg = fadd <2 x float> %v, <float 1.0, float 2.0>
  ret double %ff
}
; CHECK-LABEL: llvm.func @float_ops(%x: f64, %y: f64, %v: vector<2xf32>) -> f64 {
; CHECK-DAG:     %[[C15:.*]] = llvm.mlir.constant(1.500000e+00 : f64) : f64
; CHECK-DAG:     %[[VC:.*]] = llvm.mlir.constant(dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>) : vector<2xf32>
; CHECK:         %fa = llvm.fadd %x, %y {fastmathFlags = #llvm.fastmath<fast>} : f64
; CHECK-NEXT:    %fb = llvm.fsub %fa, %[[C15]] {fastmathFlags = #llvm.fastmath<nnan,nsz>} : f64
; CHECK-NEXT:    %fc = llvm.fmul %fb, %y {fastmathFlags = #llvm.fastmath<contract>} : f64
; CHECK-NEXT:    %fd = llvm.fdiv %fc, %x {fastmathFlags = #llvm.fastmath<arcp,afn>} : f64
; CHECK-NEXT:    %fe = llvm.frem %fd, %{{.*}} {fastmathFlags = #llvm.fastmath<reassoc>} : f64
; CHECK-NEXT:    %ff = llvm.fneg %fe {fastmathFlags = #llvm.fastmath<ninf>} : f64
; CHECK-NEXT:    %fg = llvm.fadd %v, %[[VC]] : vector<2xf32>

; LLVM-LABEL: define double @float_ops(
; LLVM-NEXT:    %fa = fadd fast double %x, %y
; LLVM-NEXT:    %fb = fsub nnan nsz double %fa, 1.500000e+00
; LLVM-NEXT:    %fc = fmul contract double %fb, %y
; LLVM-NEXT:    %fd = fdiv arcp afn double %fc, %x
; LLVM-NEXT:    %fe = frem reassoc double %fd, 2.000000e+00
; LLVM-NEXT:    %ff = fneg ninf double %fe
; LLVM-NEXT:    %fg = fadd <2 x float> %v, <float 1.000000e+00, float 2.000000e+00>
