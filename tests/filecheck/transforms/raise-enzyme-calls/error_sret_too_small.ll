; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; Derivatives returned through the caller's sret pointer must fit in the struct it points to:
; three doubles do not fit in a struct of two floats and a double.

source_filename = "prog.c"

%struct.Small = type { float, float, double }

declare void @__enzyme_autodiff(ptr sret(%struct.Small), ...)

define double @f(double %x, double %y, double %z) {
  %a = fmul double %x, %y
  %b = fmul double %a, %z
  ret double %b
}

define void @g(ptr sret(%struct.Small) %out, double %x, double %y, double %z) {
  call void (ptr, ...) @__enzyme_autodiff(ptr sret(%struct.Small) %out, ptr @f, double %x, double %y, double %z)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: cannot cast return type of gradient !llvm.struct<(f64, f64, f64)> (24 bytes) to the struct returned through the sret pointer, !llvm.struct<"struct.Small", (f32, f32, f64)> (16 bytes)
; CHECK-NEXT: note: declare __enzyme_autodiff as returning a struct of the derivatives in argument order (!llvm.struct<(f64, f64, f64)>), or a type of the same size
; CHECK-NOT:  Traceback
