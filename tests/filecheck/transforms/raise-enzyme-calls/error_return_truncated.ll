; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; Two float derivatives (eight bytes) returned as a float would lose the second: an error, not
; a truncated result.  (A struct whose first member has the call's type is different: the call
; gets the first derivative, as with Enzyme -- see results.ll.)

source_filename = "prog.c"

declare i32 @__enzyme_autodiff(ptr, float, float)

define float @f(float %x, float %y) {
  %m = fmul float %x, %y
  ret float %m
}

define i32 @g(float %x, float %y) {
  %r = call i32 @__enzyme_autodiff(ptr @f, float %x, float %y)
  ret i32 %r
}

; CHECK:      xenzyme-opt: error: prog.c: invalid __enzyme_autodiff call: cannot cast return type of gradient !llvm.struct<(f32, f32)> (8 bytes) to the call's return type i32 (4 bytes)
; CHECK-NEXT: note: declare __enzyme_autodiff as returning a struct of the derivatives in argument order (!llvm.struct<(f32, f32)>), or a type of the same size
; CHECK-NOT:  Traceback
