; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Variadic definitions (va_start/va_arg/va_end) and setjmp (a returns_twice call).

%struct.__va_list_tag = type { i32, i32, ptr, ptr }

define i32 @sum(i32 %n, ...) {
  %ap = alloca [1 x %struct.__va_list_tag], align 16
  call void @llvm.va_start.p0(ptr %ap)
  %x = va_arg ptr %ap, i32
  call void @llvm.va_end.p0(ptr %ap)
  ret i32 %x
}
; CHECK-LABEL: llvm.func @sum(%n: i32, ...) -> i32 {
; CHECK:         llvm.call_intrinsic "llvm.va_start.p0"(%ap) : (!llvm.ptr) -> ()
; CHECK-NEXT:    %x = llvm.va_arg %ap : (!llvm.ptr) -> i32
; CHECK-NEXT:    llvm.call_intrinsic "llvm.va_end.p0"(%ap) : (!llvm.ptr) -> ()

; LLVM-LABEL: define i32 @sum(i32 %n, ...) {
; LLVM:         call void @llvm.va_start.p0(ptr %ap)
; LLVM-NEXT:    %x = va_arg ptr %ap, i32
; LLVM-NEXT:    call void @llvm.va_end.p0(ptr %ap)

@env = global [200 x i8] zeroinitializer, align 16

define i32 @try() {
  %r = call i32 @_setjmp(ptr @env) #0
  ret i32 %r
}
declare i32 @_setjmp(ptr) #0
attributes #0 = { returns_twice nounwind }
; CHECK-LABEL: llvm.func @try() -> i32 {
; CHECK:         %r = llvm.call @_setjmp(%{{.*}}) {fn_attrs = ["nounwind", "returns_twice"]} : (!llvm.ptr) -> i32

; LLVM-LABEL: define i32 @try() {
; LLVM-NEXT:    %r = call i32 @_setjmp(ptr @env) nounwind returns_twice
; LLVM:       declare i32 @_setjmp(ptr) nounwind returns_twice

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
