; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM
; RUN: xenzyme-opt %s -t llvm | %llvm-verify | filecheck %s --check-prefix=VERIFIED

; Constants are materialised at the start of the entry block: scalars as llvm.mlir.constant,
; null/zeroinitializer as llvm.mlir.zero, undef/poison, and constant expressions as the
; instructions they stand for.  On export they are printed back inline.  x86_fp80 and fp128
; constants keep their bits (bitcast from an integer), which LLVM folds back into the literal.

@arr = global [4 x i32] zeroinitializer
@s = global { i32, ptr } zeroinitializer

define i64 @consts(ptr %p) {
  store i32 -7, ptr %p
  store i1 true, ptr %p
  store i128 170141183460469231731687303715884105727, ptr %p
  store half 0xH3C00, ptr %p
  store float 0x3FB99999A0000000, ptr %p
  store double -0.0, ptr %p
  store x86_fp80 0xK3FFF8000000000000000, ptr %p
  store x86_fp80 0xK400CC0E6B645A1CAC083, ptr %p
  store fp128 0xL00000000000000004000000000000000, ptr %p
  store ptr null, ptr %p
  store i32 undef, ptr %p
  store i32 poison, ptr %p
  store { i32, ptr } zeroinitializer, ptr %p
  store ptr getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 2), ptr %p
  %f = freeze i32 poison
  %x = add i64 ptrtoint (ptr @arr to i64), 8
  ret i64 sub (i64 ptrtoint (ptr getelementptr (i8, ptr @s, i64 8) to i64), i64 ptrtoint (ptr @s to i64))
}
; CHECK-LABEL: llvm.func @consts(%p: !llvm.ptr) -> i64 {
; CHECK-DAG:     llvm.mlir.constant(-7 : i32) : i32
; CHECK-DAG:     llvm.mlir.constant(true) : i1
; CHECK-DAG:     llvm.mlir.constant(170141183460469231731687303715884105727 : i128) : i128
; CHECK-DAG:     llvm.mlir.constant(1.000000e+00 : f16) : f16
; CHECK-DAG:     llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-DAG:     %[[ONE80:.*]] = llvm.mlir.constant(302222231531620438900736 : i80) : i80
; CHECK-DAG:     llvm.bitcast %[[ONE80]] : i80 to f80
; CHECK-DAG:     %[[BITS:.*]] = llvm.mlir.constant(302466715830251917328515 : i80) : i80
; CHECK-DAG:     llvm.bitcast %[[BITS]] : i80 to f80
; CHECK-DAG:     %[[TWO128:.*]] = llvm.mlir.constant(85070591730234615865843651857942052864 : i128) : i128
; CHECK-DAG:     llvm.bitcast %[[TWO128]] : i128 to f128
; CHECK-DAG:     llvm.mlir.zero : !llvm.ptr
; CHECK-DAG:     llvm.mlir.undef : i32
; CHECK-DAG:     %[[POISON:.*]] = llvm.mlir.poison : i32
; CHECK-DAG:     llvm.mlir.zero : !llvm.struct<(i32, !llvm.ptr)>
; CHECK-DAG:     %[[ARR:.*]] = llvm.mlir.addressof @arr : !llvm.ptr
; CHECK-DAG:     llvm.getelementptr inbounds %[[ARR]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i32>
; CHECK-DAG:     llvm.ptrtoint %[[ARR]] : !llvm.ptr to i64
; CHECK:         %f = llvm.freeze %[[POISON]] : i32
; CHECK-NEXT:    %x = llvm.add %{{.*}}, %{{.*}} : i64

; LLVM-LABEL: define i64 @consts(ptr %p) {
; LLVM-NEXT:    store i32 -7, ptr %p
; LLVM-NEXT:    store i1 true, ptr %p
; LLVM-NEXT:    store i128 170141183460469231731687303715884105727, ptr %p
; LLVM-NEXT:    store half 0xH3C00, ptr %p
; LLVM-NEXT:    store float 0x3FB99999A0000000, ptr %p
; LLVM-NEXT:    store double -0.000000e+00, ptr %p
; LLVM-NEXT:    store x86_fp80 bitcast (i80 302222231531620438900736 to x86_fp80), ptr %p
; LLVM-NEXT:    store x86_fp80 bitcast (i80 302466715830251917328515 to x86_fp80), ptr %p
; LLVM-NEXT:    store fp128 bitcast (i128 85070591730234615865843651857942052864 to fp128), ptr %p
; LLVM-NEXT:    store ptr null, ptr %p
; LLVM-NEXT:    store i32 undef, ptr %p
; LLVM-NEXT:    store i32 poison, ptr %p
; LLVM-NEXT:    store { i32, ptr } zeroinitializer, ptr %p
; LLVM-NEXT:    store ptr getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 2), ptr %p
; LLVM-NEXT:    %f = freeze i32 poison
; LLVM-NEXT:    %x = add i64 ptrtoint (ptr @arr to i64), 8

; LLVM reads the bits back as the same literals.
; VERIFIED-LABEL: define i64 @consts(ptr %p) {
; VERIFIED:         store x86_fp80 0xK3FFF8000000000000000, ptr %p, align 16
; VERIFIED-NEXT:    store x86_fp80 0xK400CC0E6B645A1CAC083, ptr %p, align 16
; VERIFIED-NEXT:    store fp128 0xL00000000000000004000000000000000, ptr %p, align 16
; LLVM-NEXT:    ret i64 sub (i64 ptrtoint (ptr getelementptr (i8, ptr @s, i64 8) to i64), i64 ptrtoint (ptr @s to i64))
