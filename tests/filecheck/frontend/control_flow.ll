; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Phis become block arguments, passed by br, cond_br and switch; block names are kept.

define i32 @loop(i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inext, %body ]
  %acc = phi i32 [ 1, %entry ], [ %accnext, %body ]
  %done = icmp sge i32 %i, %n
  br i1 %done, label %exit, label %body
body:
  %accnext = mul i32 %acc, 3
  %inext = add i32 %i, 1
  br label %header
exit:
  ret i32 %acc
}
; CHECK-LABEL: llvm.func @loop(%n: i32) -> i32 {
; CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
; CHECK-DAG:     %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK-DAG:     %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
; CHECK:         llvm.br ^header(%[[ZERO]], %[[ONE]] : i32, i32)
; CHECK-NEXT:  ^header(%i: i32, %acc: i32):
; CHECK-NEXT:    %done = llvm.icmp "sge" %i, %n : i32
; CHECK-NEXT:    llvm.cond_br %done, ^exit, ^body
; CHECK-NEXT:  ^body:
; CHECK-NEXT:    %accnext = llvm.mul %acc, %[[THREE]] : i32
; CHECK-NEXT:    %inext = llvm.add %i, %[[ONE]] : i32
; CHECK-NEXT:    llvm.br ^header(%inext, %accnext : i32, i32)
; CHECK-NEXT:  ^exit:
; CHECK-NEXT:    llvm.return %acc : i32

; LLVM-LABEL: define i32 @loop(i32 %n) {
; LLVM-NEXT:  entry:
; LLVM-NEXT:    br label %header
; LLVM-NEXT:  header:
; LLVM-NEXT:    %i = phi i32 [ 0, %entry ], [ %inext, %body ]
; LLVM-NEXT:    %acc = phi i32 [ 1, %entry ], [ %accnext, %body ]
; LLVM-NEXT:    %done = icmp sge i32 %i, %n
; LLVM-NEXT:    br i1 %done, label %exit, label %body

define i32 @branches(i32 %x, i1 %c) {
  br i1 %c, label %sw, label %other
sw:
  switch i32 %x, label %join [
    i32 0, label %zero
    i32 5, label %join
    i32 -3, label %other
  ]
zero:
  br label %join
other:
  unreachable
join:
  %r = phi i32 [ 10, %sw ], [ 10, %sw ], [ 20, %zero ]
  ret i32 %r
}
; CHECK-LABEL: llvm.func @branches(%x: i32, %c: i1) -> i32 {
; CHECK:         llvm.cond_br %c, ^[[SW:.*]], ^[[OTHER:.*]]
; CHECK-NEXT:  ^[[SW]]:
; CHECK-NEXT:    llvm.switch %x : i32, ^[[JOIN:.*]](%[[TEN:.*]] : i32) [0: ^[[ZERO:.*]], 5: ^[[JOIN]](%[[TEN]] : i32), -3: ^[[OTHER]]]
; CHECK-NEXT:  ^[[ZERO]]:
; CHECK-NEXT:    llvm.br ^[[JOIN]](%{{.*}} : i32)
; CHECK-NEXT:  ^[[OTHER]]:
; CHECK-NEXT:    llvm.unreachable
; CHECK-NEXT:  ^[[JOIN]](%r: i32):
; CHECK-NEXT:    llvm.return %r : i32

; LLVM-LABEL: define i32 @branches(i32 %x, i1 %c) {
; LLVM-NEXT:    br i1 %c, label %[[SW:.*]], label %[[OTHER:.*]]
; LLVM:         switch i32 %x, label %[[JOIN:.*]] [ i32 0, label %{{.*}} i32 5, label %[[JOIN]] i32 -3, label %[[OTHER]] ]
; LLVM:         unreachable
; LLVM:         %r = phi i32 [ 10, %[[SW]] ], [ 10, %[[SW]] ], [ 20, %{{.*}} ]

define void @ret_void() {
  ret void
}
; CHECK-LABEL: llvm.func @ret_void() {
; CHECK-NEXT:    llvm.return
