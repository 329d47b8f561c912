; RUN: xenzyme-opt %s -p 'llvm-opt{level=2}' | filecheck %s --check-prefix=O2
; RUN: xenzyme-opt %s -p 'llvm-opt{level=0}' | filecheck %s --check-prefix=O0
; RUN: xenzyme-opt %s -p 'llvm-opt{level=3}' -t llvm | filecheck %s --check-prefix=O3

; llvm-opt runs LLVM's standard pipeline on the module and imports the result back.

define internal i32 @square(i32 %x) {
  %y = mul i32 %x, %x
  ret i32 %y
}

define i32 @sum_squares() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inext, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %accnext, %loop ]
  %sq = call i32 @square(i32 %i)
  %accnext = add i32 %acc, %sq
  %inext = add i32 %i, 1
  %done = icmp eq i32 %inext, 10
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %accnext
}

; At -O2 the helper is inlined and the loop folded to its value, 0^2 + ... + 9^2 = 285.
; O2-NOT:      llvm.func internal @square
; O2-LABEL:    llvm.func local_unnamed_addr @sum_squares()
; O2-NEXT:       %[[C:.*]] = llvm.mlir.constant(285 : i32) : i32
; O2-NEXT:       llvm.return %[[C]] : i32

; -O0 leaves the code as it is.
; O0-LABEL:    llvm.func internal @square(%x: i32) -> i32 {
; O0:          llvm.func @sum_squares() -> i32 {
; O0:            llvm.call @square(%i) : (i32) -> i32

; O3-LABEL:    define {{.*}}i32 @sum_squares()
; O3-NEXT:     entry:
; O3-NEXT:       ret i32 285
