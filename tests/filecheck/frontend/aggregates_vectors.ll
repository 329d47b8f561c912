; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Aggregate and vector instructions; aggregate and vector constants.

%pair = type { i32, double }

define double @aggregates(%pair %p, [3 x i32] %a) {
  %x = extractvalue %pair %p, 1
  %q = insertvalue %pair %p, i32 7, 0
  %n = extractvalue [3 x i32] %a, 2
  %nested = insertvalue { %pair, i8 } undef, %pair %q, 0
  %deep = extractvalue { %pair, i8 } %nested, 0, 1
  %const = insertvalue %pair { i32 1, double 2.5 }, double %x, 1
  ret double %deep
}
; CHECK-LABEL: llvm.func @aggregates(%p: !llvm.struct<"pair", (i32, f64)>, %a: !llvm.array<3 x i32>) -> f64 {
; CHECK:         %x = llvm.extractvalue %p[1] : !llvm.struct<"pair", (i32, f64)>
; CHECK-NEXT:    %q = llvm.insertvalue %{{.*}}, %p[0] : !llvm.struct<"pair", (i32, f64)>
; CHECK-NEXT:    %n = llvm.extractvalue %a[2] : !llvm.array<3 x i32>
; CHECK-NEXT:    %nested = llvm.insertvalue %q, %{{.*}}[0] : !llvm.struct<(!llvm.struct<"pair", (i32, f64)>, i8)>
; CHECK-NEXT:    %deep = llvm.extractvalue %nested[0, 1] : !llvm.struct<(!llvm.struct<"pair", (i32, f64)>, i8)>
; CHECK-NEXT:    %const = llvm.insertvalue %x, %{{.*}}[1] : !llvm.struct<"pair", (i32, f64)>

; LLVM-LABEL: define double @aggregates(%pair %p, [3 x i32] %a) {
; LLVM-NEXT:    %x = extractvalue %pair %p, 1
; LLVM-NEXT:    %q = insertvalue %pair %p, i32 7, 0
; LLVM-NEXT:    %n = extractvalue [3 x i32] %a, 2
; LLVM-NEXT:    %nested = insertvalue { %pair, i8 } undef, %pair %q, 0
; LLVM-NEXT:    %deep = extractvalue { %pair, i8 } %nested, 0, 1
; LLVM-NEXT:    %const = insertvalue %pair { i32 1, double 2.500000e+00 }, double %x, 1

define <4 x float> @vectors(<4 x float> %v, float %s, i32 %i) {
  %e = extractelement <4 x float> %v, i32 %i
  %w = insertelement <4 x float> %v, float %s, i64 0
  %sh = shufflevector <4 x float> %v, <4 x float> %w, <4 x i32> <i32 0, i32 5, i32 poison, i32 3>
  %bc = shufflevector <4 x float> %w, <4 x float> poison, <4 x i32> zeroinitializer
  %sp = fadd <4 x float> %bc, splat (float 1.0)
  %mix = fmul <4 x float> %sp, <float 1.0, float 2.0, float 3.0, float poison>
  ret <4 x float> %mix
}
; CHECK-LABEL: llvm.func @vectors(%v: vector<4xf32>, %s: f32, %i: i32) -> vector<4xf32> {
; CHECK-DAG:     %[[SPLAT:.*]] = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
; CHECK-DAG:     %[[POISON:.*]] = llvm.mlir.poison : vector<4xf32>
; CHECK:         %e = llvm.extractelement %v[%i : i32] : vector<4xf32>
; CHECK-NEXT:    %w = llvm.insertelement %s, %v[%{{.*}} : i64] : vector<4xf32>
; CHECK-NEXT:    %sh = llvm.shufflevector %v, %w [0, 5, -1, 3] : vector<4xf32>
; CHECK-NEXT:    %bc = llvm.shufflevector %w, %[[POISON]] [0, 0, 0, 0] : vector<4xf32>
; CHECK-NEXT:    %sp = llvm.fadd %bc, %[[SPLAT]] : vector<4xf32>

; LLVM-LABEL: define <4 x float> @vectors(
; LLVM-NEXT:    %e = extractelement <4 x float> %v, i32 %i
; LLVM-NEXT:    %w = insertelement <4 x float> %v, float %s, i64 0
; LLVM-NEXT:    %sh = shufflevector <4 x float> %v, <4 x float> %w, <4 x i32> <i32 0, i32 5, i32 poison, i32 3>
; LLVM-NEXT:    %bc = shufflevector <4 x float> %w, <4 x float> poison, <4 x i32> <i32 0, i32 0, i32 0, i32 0>
; LLVM-NEXT:    %sp = fadd <4 x float> %bc, splat (float 1.000000e+00)
; LLVM-NEXT:    %mix = fmul <4 x float> %sp, <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float poison>
