; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; One gradient function per (function, activities) pair, shared by the requests that ask for
; it; another activity pattern gets another name.  Parameters: each primal argument, followed
; by its shadow when duplicated, then the seed of an active return.  The result: the
; derivatives of the active arguments.  The primal's target attributes are kept.

@enzyme_const = external global i32
@enzyme_dupnoneed = external global i32

declare double @__enzyme_autodiff(...)
declare void @__enzyme_autodiff_void(...)

define double @f(double %x, double %y) #0 {
  %m = fmul double %x, %y
  ret double %m
}

; copy *p to *q
define void @h(ptr %p, ptr %q, i32 %n) {
  %v = load double, ptr %p
  store double %v, ptr %q
  ret void
}

; CHECK-LABEL: llvm.func internal @diffef.2(
; CHECK-SAME:      %{{[^:]+}}: f64, %{{[^:]+}}: f64, %{{[^:]+}}: f64) -> !llvm.struct<(f64, f64)>
; CHECK-SAME:      attributes {passthrough = ["nounwind", ["target-cpu", "x86-64"], ["target-features", "+sse2"]]}
; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %{{[^:]+}}: f64, %{{[^:]+}}: f64, %{{[^:]+}}: f64) -> f64
; CHECK-NOT:   llvm.func internal @diffef
; CHECK-LABEL: llvm.func internal @diffeh(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: i32) attributes

; CHECK-LABEL: llvm.func @g(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr, %[[Q:[^:]+]]: !llvm.ptr, %[[DQ:[^:]+]]: !llvm.ptr) -> f64 {
; CHECK:         %[[ONE1:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[A:.*]] = llvm.call @diffef(%[[X]], %[[Y]], %[[ONE1]]) : (f64, f64, f64) -> f64
; CHECK-NEXT:    %[[ONE2:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[B:.*]] = llvm.call @diffef(%[[Y]], %[[X]], %[[ONE2]]) : (f64, f64, f64) -> f64
; CHECK-NEXT:    %[[ONE3:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK-NEXT:    %{{.*}} = llvm.call @diffef.2(%[[X]], %[[Y]], %[[ONE3]]) : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
; CHECK:         llvm.call @diffeh(%[[P]], %[[DP]], %[[Q]], %[[DQ]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> ()
; CHECK-NEXT:    %{{.*}} = llvm.fadd %[[A]], %[[B]] : f64
define double @g(double %x, double %y, ptr %p, ptr %dp, ptr %q, ptr %dq) {
  %c = load i32, ptr @enzyme_const
  %a = call double (...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, double %y)
  %b = call double (...) @__enzyme_autodiff(ptr @f, double %y, i32 %c, double %x)
  %d = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  %nn = load i32, ptr @enzyme_dupnoneed
  call void (...) @__enzyme_autodiff_void(ptr @h, ptr %p, ptr %dp, i32 %nn, ptr %q, ptr %dq, i32 3)
  %s = fadd double %a, %b
  ret double %s
}

attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+sse2" }
