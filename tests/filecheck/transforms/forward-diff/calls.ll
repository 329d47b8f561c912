; RUN: xenzyme-opt %s -p raise-enzyme-calls,forward-diff | filecheck %s

; Calls to functions defined in the module are differentiated too: a call whose arguments or
; result carry tangents becomes a call of the callee's tangent function, generated for the
; activity of that call (`dup` for each argument with a tangent, `const` otherwise) and returning
; the primal result and its tangent as a struct; a call with no tangents stays as it is.
; Recursion calls the tangent function being generated.

source_filename = "prog.c"

@enzyme_const = external global i32

declare double @__enzyme_fwddiff(...)

define internal double @sq(double %x, i32 %k) noinline {
  %m = fmul double %x, %x
  ret double %m
}

; The callee's tangent function for (dup, const) -> dup: primal and tangent in a struct.
; CHECK-LABEL: llvm.func internal @fwddiffesq(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[K:[^:]+]]: i32) -> !llvm.struct<(f64, f64)>
; CHECK:         %[[M:.*]] = llvm.fmul %[[X]], %[[X]] : f64
; CHECK-NEXT:    %[[A:.*]] = llvm.fmul %[[DX]], %[[X]] : f64
; CHECK-NEXT:    %[[B:.*]] = llvm.fmul %[[DX]], %[[X]] : f64
; CHECK-NEXT:    %[[DM:.*]] = llvm.fadd %[[A]], %[[B]] : f64
; CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[R0:.*]] = llvm.insertvalue %[[M]], %[[U]][0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[DM]], %[[R0]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    llvm.return %[[R1]] : !llvm.struct<(f64, f64)>

define double @f(double %x, double %y) {
  %a = call double @sq(double %x, i32 1)
  %b = call double @sq(double %y, i32 2)
  %c = call double @sq(double 2.0, i32 3)
  %s = fadd double %a, %b
  %t = fmul double %s, %c
  ret double %t
}

; Only the call with a varied argument is differentiated; y is constant here.
; CHECK-LABEL: llvm.func internal @fwddiffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[Y:[^:]+]]: f64) -> f64
; CHECK:         %[[CA:.*]] = llvm.call @fwddiffesq(%[[X]], %[[DX]], %{{.*}}) : (f64, f64, i32) -> !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[A:.*]] = llvm.extractvalue %[[CA]][0] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[DA:.*]] = llvm.extractvalue %[[CA]][1] : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[B:.*]] = llvm.call @sq(%[[Y]], %{{.*}}) : (f64, i32) -> f64
; CHECK-NEXT:    %[[C:.*]] = llvm.call @sq(%{{.*}}, %{{.*}}) : (f64, i32) -> f64
; CHECK-NEXT:    %[[S:.*]] = llvm.fadd %[[A]], %[[B]] : f64
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[S]], %[[C]] : f64
; CHECK-NEXT:    %[[DT:.*]] = llvm.fmul %[[DA]], %[[C]] : f64
; CHECK-NEXT:    llvm.return %[[DT]] : f64

define double @powi(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double 1.0
rec:
  %n1 = sub i32 %n, 1
  %p = call double @powi(double %x, i32 %n1)
  %r = fmul double %p, %x
  ret double %r
}

; Recursion: the (dup, const) -> dup tangent function of powi calls itself.
; CHECK-LABEL: llvm.func internal @fwddiffepowi.2(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %{{[^:]+}}: i32) -> !llvm.struct<(f64, f64)>
; CHECK:         %[[C:.*]] = llvm.call @fwddiffepowi.2(%[[X]], %[[DX]], %{{.*}}) : (f64, f64, i32) -> !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %[[P:.*]] = llvm.extractvalue %[[C]][0]
; CHECK-NEXT:    %[[DP:.*]] = llvm.extractvalue %[[C]][1]
; CHECK-NEXT:    %[[R:.*]] = llvm.fmul %[[P]], %[[X]] : f64
; CHECK-NEXT:    %[[T1:.*]] = llvm.fmul %[[DP]], %[[X]] : f64
; CHECK-NEXT:    %[[T2:.*]] = llvm.fmul %[[DX]], %[[P]] : f64
; CHECK-NEXT:    %[[DR:.*]] = llvm.fadd %[[T1]], %[[T2]] : f64
; CHECK:         llvm.insertvalue %[[R]], %{{.*}}[0]
; CHECK-NEXT:    llvm.insertvalue %[[DR]], %{{.*}}[1]
; The base case returns 1 with a zero tangent.
; CHECK:         %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64)>
; CHECK-NEXT:    %{{.*}} = llvm.insertvalue %{{.*}}, %[[U]][0]
; CHECK-NEXT:    %{{.*}} = llvm.insertvalue %[[Z]], %{{.*}}[1]

; The requested one returns the tangent only (dupnoneed) and calls the one above.
; CHECK-LABEL: llvm.func internal @fwddiffepowi(
; CHECK:         llvm.call @fwddiffepowi.2(
; CHECK-NOT:     llvm.call @powi

define void @requests(double %x, double %y) {
  %1 = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, ptr @enzyme_const, double %y)
  %2 = call double (...) @__enzyme_fwddiff(ptr @powi, double %x, double 1.0, i32 5)
  ret void
}

; CHECK-LABEL: llvm.func @requests(
; CHECK:         llvm.call @fwddiffef(
; CHECK:         llvm.call @fwddiffepowi(
