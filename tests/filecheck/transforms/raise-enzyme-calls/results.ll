; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

; How the derivatives of the active arguments reach the caller: one value as the call's result,
; several as a struct in argument order -- in registers, through the caller's sret pointer, or
; reinterpreted through memory when the C ABI gives the struct another type.

%struct.Grad3 = type { double, double, double }

declare double @__enzyme_autodiff(...)
declare { double, double } @__enzyme_autodiff_pair(...)
declare void @__enzyme_autodiff_sret(ptr sret(%struct.Grad3), ...)
declare <2 x float> @__enzyme_autodiff_floats(...)

define double @f1(double %x, i32 %n) {
  ret double %x
}

define double @f2(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @f3(double %x, double %y, double %z) {
  %a = fadd double %x, %y
  %b = fadd double %a, %z
  ret double %b
}

define float @ff(float %x, float %y) {
  %m = fmul float %x, %y
  ret float %m
}

define double @one(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f1, double %x, i32 2)
  ret double %r
}

; CHECK-LABEL: llvm.func @one(
; CHECK:         %[[R1:.*]] = autodiff.autodiff @f1(%{{.*}}, %{{.*}}) activity [active, const] ret active : (f64, i32) -> f64
; CHECK-NEXT:    llvm.return %[[R1]] : f64

define { double, double } @two(double %x, double %y) {
  %r = call { double, double } (...) @__enzyme_autodiff_pair(ptr @f2, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: llvm.func @two(
; CHECK:         %[[R2:.*]] = autodiff.autodiff @f2(%{{.*}}, %{{.*}}) activity [active, active] ret active : (f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[R2]] : !llvm.struct<(f64, f64)>

; A struct of three doubles comes back through a hidden pointer: the first argument, marked
; sret, is not the function to differentiate.
define void @three(ptr sret(%struct.Grad3) %out, double %x, double %y, double %z) {
  call void (ptr, ...) @__enzyme_autodiff_sret(ptr sret(%struct.Grad3) %out, ptr @f3, double %x, double %y, double %z)
  ret void
}

; CHECK-LABEL: llvm.func @three(
; CHECK-SAME:      %[[OUT:[^:]+]]: !llvm.ptr {llvm.sret = !llvm.struct<"struct.Grad3", (f64, f64, f64)>}, %[[X3:[^:]+]]: f64, %[[Y3:[^:]+]]: f64, %[[Z3:[^:]+]]: f64) {
; CHECK:         %[[R3:.*]] = autodiff.autodiff @f3(%[[X3]], %[[Y3]], %[[Z3]]) activity [active, active, active] ret active
; CHECK-SAME:        : (f64, f64, f64) -> !llvm.struct<(f64, f64, f64)>
; CHECK-NEXT:    llvm.store %[[R3]], %[[OUT]] : !llvm.struct<(f64, f64, f64)>, !llvm.ptr
; CHECK-NEXT:    llvm.return

; x86-64 returns a struct of two floats as <2 x float>: the same bytes, through a stack slot.
define <2 x float> @coerced(float %x, float %y) {
  %r = call <2 x float> (...) @__enzyme_autodiff_floats(ptr @ff, float %x, float %y)
  ret <2 x float> %r
}

; CHECK-LABEL: llvm.func @coerced(
; CHECK:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(!llvm.struct<(f32, f32)>, vector<2xf32>)>
; CHECK:         %[[R4:.*]] = autodiff.autodiff @ff(%{{.*}}, %{{.*}}) activity [active, active] ret active : (f32, f32) -> !llvm.struct<(f32, f32)>
; CHECK-NEXT:    llvm.store %[[R4]], %[[SLOT]] : !llvm.struct<(f32, f32)>, !llvm.ptr
; CHECK-NEXT:    %[[V:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> vector<2xf32>
; CHECK-NEXT:    llvm.return %[[V]] : vector<2xf32>

; Three floats come back as { <2 x float>, float }: twelve bytes of data in both types.
declare { <2 x float>, float } @__enzyme_autodiff_floats3(ptr, float, float, float)

define float @fff(float %x, float %y, float %z) {
  %a = fmul float %x, %y
  %b = fmul float %a, %z
  ret float %b
}

define { <2 x float>, float } @coerced3(float %x, float %y, float %z) {
  %r = call { <2 x float>, float } @__enzyme_autodiff_floats3(ptr @fff, float %x, float %y, float %z)
  ret { <2 x float>, float } %r
}

; CHECK-LABEL: llvm.func @coerced3(
; CHECK:         %[[SLOT3:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(!llvm.struct<(f32, f32, f32)>, !llvm.struct<(vector<2xf32>, f32)>)>
; CHECK:         %[[R5:.*]] = autodiff.autodiff @fff({{.*}}) activity [active, active, active] ret active : (f32, f32, f32) -> !llvm.struct<(f32, f32, f32)>
; CHECK-NEXT:    llvm.store %[[R5]], %[[SLOT3]] : !llvm.struct<(f32, f32, f32)>, !llvm.ptr
; CHECK-NEXT:    %[[V3:.*]] = llvm.load %[[SLOT3]] : !llvm.ptr -> !llvm.struct<(vector<2xf32>, f32)>
; CHECK-NEXT:    llvm.return %[[V3]] : !llvm.struct<(vector<2xf32>, f32)>

; A call returning double for two active doubles gets the first derivative, as with Enzyme
; (`double __enzyme_autodiff(void *, ...)` is the usual prototype).
define double @first(double %x, double %y) {
  %r = call double (...) @__enzyme_autodiff(ptr @f2, double %x, double %y)
  ret double %r
}

; CHECK-LABEL: llvm.func @first(
; CHECK:         %[[R6:.*]] = autodiff.autodiff @f2(%{{.*}}, %{{.*}}) activity [active, active] ret active : (f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[D6:.*]] = llvm.extractvalue %[[R6]][0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[D6]] : f64
