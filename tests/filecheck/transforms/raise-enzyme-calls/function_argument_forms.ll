; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

; The function to differentiate arrives in whatever form the frontend gives it: its address, the
; address as an integer (Rust's `f as usize`: a constant expression, or an instruction at -O0),
; casts of either, or a load from a constant global holding it.  Every form names @f.

@fptr = internal constant ptr @f
@fint = private unnamed_addr constant i64 ptrtoint (ptr @f to i64)
@fptr_as1 = internal constant ptr addrspace(1) addrspacecast (ptr @f to ptr addrspace(1))

declare double @__enzyme_autodiff(i64, ...)
declare double @__enzyme_autodiff_ptr(ptr, ...)
declare double @__enzyme_fwddiff(i64, ...)
declare ptr @__enzyme_augmentfwd(i64, ...)
declare double @__enzyme_reverse(i64, ...)

define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @pointer(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff_ptr(ptr @f, double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @pointer(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @ptrtoint_constexpr(double %x) {
  %r = call double (i64, ...) @__enzyme_autodiff(i64 ptrtoint (ptr @f to i64), double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @ptrtoint_constexpr(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @ptrtoint_instruction(double %x) {
  %i = ptrtoint ptr @f to i64
  %r = call double (i64, ...) @__enzyme_autodiff(i64 %i, double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @ptrtoint_instruction(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @addrspacecast(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff_ptr(ptr addrspacecast (ptr addrspace(1) addrspacecast (ptr @f to ptr addrspace(1)) to ptr), double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @addrspacecast(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @inttoptr_of_ptrtoint(double %x) {
  %i = ptrtoint ptr @f to i64
  %p = inttoptr i64 %i to ptr
  %r = call double (ptr, ...) @__enzyme_autodiff_ptr(ptr %p, double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @inttoptr_of_ptrtoint(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @load_constant_global(double %x) {
  %p = load ptr, ptr @fptr
  %r = call double (ptr, ...) @__enzyme_autodiff_ptr(ptr %p, double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @load_constant_global(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @load_integer_global(double %x) {
  %i = load i64, ptr @fint
  %r = call double (i64, ...) @__enzyme_autodiff(i64 %i, double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @load_integer_global(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

define double @load_cast_global(double %x) {
  %p = load ptr addrspace(1), ptr @fptr_as1
  %i = ptrtoint ptr addrspace(1) %p to i64
  %r = call double (i64, ...) @__enzyme_autodiff(i64 %i, double %x)
  ret double %r
}
; CHECK-LABEL: llvm.func @load_cast_global(
; CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active

; Forward and split mode read the function the same way.
define double @forward(double %x) {
  %r = call double (i64, ...) @__enzyme_fwddiff(i64 ptrtoint (ptr @f to i64), double %x, double 1.0)
  ret double %r
}
; CHECK-LABEL: llvm.func @forward(
; CHECK:         autodiff.fwddiff @f(%{{.*}}, %{{.*}}) activity [dup] ret dupnoneed

define double @split(double %x) {
  %i = ptrtoint ptr @f to i64
  %t = call ptr (i64, ...) @__enzyme_augmentfwd(i64 %i, double %x)
  %p = load ptr, ptr @fptr
  %j = ptrtoint ptr %p to i64
  %r = call double (i64, ...) @__enzyme_reverse(i64 %j, double %x, double 1.0, ptr %t)
  ret double %r
}
; CHECK-LABEL: llvm.func @split(
; CHECK:         autodiff.augment @f(%{{.*}}) activity [active] ret active
; CHECK:         autodiff.reverse @f(%{{.*}}) activity [active] ret active
