; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Unnamed (numbered) globals, names that need quotes, and unnamed values and blocks.

@0 = private constant i32 5
@1 = private constant i32 6
@"a b" = global i32 1

define i32 @"odd name"(i32 %0) {
  %2 = load i32, ptr @0
  %3 = load i32, ptr @1
  %4 = add i32 %2, %3
  br label %5
5:
  %6 = add i32 %4, %0
  ret i32 %6
}

; CHECK:      llvm.mlir.global private constant @"0"(5 : i32)
; CHECK-NEXT: llvm.mlir.global private constant @"1"(6 : i32)
; CHECK-NEXT: llvm.mlir.global external @"a b"(1 : i32)
; CHECK-LABEL: llvm.func @"odd name"(
; CHECK:        llvm.mlir.addressof @"0" : !llvm.ptr
; CHECK:        llvm.br ^bb1
; CHECK-NEXT:  ^bb1:

; LLVM:      @0 = private constant i32 5
; LLVM:      @1 = private constant i32 6
; LLVM:      @"a b" = global i32 1
; LLVM-LABEL: define i32 @"odd name"(i32 %arg0) {
; LLVM-NEXT:   %v0 = load i32, ptr @0, align 4
; LLVM-NEXT:   %v1 = load i32, ptr @1, align 4
; LLVM-NEXT:   %v2 = add i32 %v0, %v1
; LLVM-NEXT:   br label %bb1
; LLVM-NEXT: bb1:
; LLVM-NEXT:   %v3 = add i32 %v2, %arg0
