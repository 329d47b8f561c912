; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -p 'llvm-opt{level=2}' -t llvm | filecheck %s --check-prefix=LLVM
; REQUIRES: llvm19
; RUN: llvm-as-19 %s -o %t.bc
; RUN: xenzyme-opt %t.bc -p 'llvm-opt{level=2}' -t llvm | filecheck %s --check-prefix=LLVM

; LLVM 19 text (flang-19 writes such IR) with `mul` constant expressions, which LLVM 22 no
; longer reads: in a global initializer (a type descriptor's size, where even bitcode cannot be
; upgraded), in instructions, by a negative constant, by a type's size, nested.  Each becomes
; the same product as address arithmetic; names and strings that merely say "mul (" stay.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

%desc = type { ptr, i64, i32 }
%pair = type { double, double }

@name = private constant [7 x i8] c"mul (x)"
@td = constant %desc { ptr @name, i64 mul (i64 ptrtoint (ptr getelementptr (i8, ptr null, i32 1) to i64), i64 6), i32 1 }
@sizes = constant [3 x i64] [i64 mul nuw nsw (i64 ptrtoint (ptr getelementptr (%pair, ptr null, i32 1) to i64), i64 -3), i64 mul (i64 5, i64 ptrtoint (ptr getelementptr (%pair, ptr null, i32 1) to i64)), i64 mul (i64 mul (i64 2, i64 3), i64 7)]

define i64 @mul(i64 %a, i64 %b) {
  %p = mul i64 %a, %b   ; mul (a comment)
  ret i64 %p
}

define i64 @uses(i64 %n) {
  %m = call i64 @mul(i64 %n, i64 3)
  %s = add i64 %m, mul (i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i64 4)
  ret i64 %s
}

define i64 @td_size() {
  %p = getelementptr %desc, ptr @td, i64 0, i32 1
  %v = load i64, ptr %p
  ret i64 %v
}

define i64 @sizes_sum() {
  %a = load i64, ptr @sizes
  %pb = getelementptr [3 x i64], ptr @sizes, i64 0, i64 1
  %b = load i64, ptr %pb
  %pc = getelementptr [3 x i64], ptr @sizes, i64 0, i64 2
  %c = load i64, ptr %pc
  %ab = mul i64 %a, 1000000
  %bc = mul i64 %b, 1000
  %s1 = add i64 %ab, %bc
  %s = add i64 %s1, %c
  ret i64 %s
}

; The imported module: the type descriptor's size is address arithmetic, no longer a product.
; CHECK:       llvm.mlir.global external constant @td()
; CHECK-NOT:     llvm.mul
; CHECK:         llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<6 x i8>
; CHECK:       llvm.func @mul(
; CHECK:         llvm.mul %a, %b
; CHECK:       llvm.func @uses(
; CHECK:         llvm.call @mul(%n, %{{.*}})

; Once LLVM knows the data layout, each product is the number it stood for: 8*4, 1*6, and
; 16*-3, 5*16, 2*3*7 (read as -48 * 10^6 + 80 * 10^3 + 42).
; LLVM:       @name = private constant [7 x i8] c"mul (x)"
; LLVM-LABEL: define i64 @mul(i64 %a, i64 %b)
; LLVM:         mul i64 %b, %a
; LLVM-LABEL: define i64 @uses(i64 %n)
; LLVM:         %[[M:.*]] = mul i64 %n, 3
; LLVM-NEXT:    %s = add i64 %[[M]], 32
; LLVM-LABEL: define {{.*}}i64 @td_size()
; LLVM-NEXT:    ret i64 6
; LLVM-LABEL: define {{.*}}i64 @sizes_sum()
; LLVM-NEXT:    ret i64 -47919958
