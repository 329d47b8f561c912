; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Module level: triple, data layout, named types, globals with initialisers, linkage,
; visibility, alignment, sections, comdats, thread-locals, aliases and declarations.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$dedup = comdat any

%struct.Point = type { double, double }

@counter = internal global i32 42, align 4
@pi = dso_local constant double 3.5, align 8
@table = private unnamed_addr constant [4 x i16] [i16 1, i16 -2, i16 3, i16 4], align 2
@message = linkonce_odr hidden constant [6 x i8] c"hello\00", comdat($dedup), align 1
@origin = global %struct.Point { double 1.0, double -1.0 }, section ".mydata", align 16
@tls = thread_local(initialexec) global i64 0
@ptrs = global [2 x ptr] [ptr @counter, ptr getelementptr (i8, ptr @table, i64 2)]
@ext = external global i32
@weak = extern_weak global i32
@common = common global i64 0, align 8
@ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
@alias = alias i32, ptr @counter
@hidden_alias = hidden alias [6 x i8], ptr @message

define internal void @init() {
  ret void
}
declare extern_weak void @maybe()

; CHECK:      builtin.module attributes {llvm.data_layout = "{{.*}}", llvm.target_triple = "x86_64-pc-linux-gnu", llvm.comdats = {dedup = "any"}} {
; CHECK-NEXT:   llvm.mlir.global internal @counter(42 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32
; CHECK-NEXT:   llvm.mlir.global external constant @pi(3.500000e+00 : f64) {addr_space = 0 : i32, dso_local, alignment = 8 : i64} : f64
; CHECK-NEXT:   llvm.mlir.global private unnamed_addr constant @table(dense<[1, -2, 3, 4]> : tensor<4xi16>) {addr_space = 0 : i32, alignment = 2 : i64} : !llvm.array<4 x i16>
; CHECK-NEXT:   llvm.mlir.global linkonce_odr constant @message("hello\00") {addr_space = 0 : i32, visibility_ = 1 : i64, alignment = 1 : i64, comdat = "dedup"} : !llvm.array<6 x i8>
; CHECK-NEXT:   llvm.mlir.global external @origin() {addr_space = 0 : i32, section = ".mydata", alignment = 16 : i64} : !llvm.struct<"struct.Point", (f64, f64)> {
; CHECK:          llvm.return %{{.*}} : !llvm.struct<"struct.Point", (f64, f64)>
; CHECK-NEXT:   }
; CHECK-NEXT:   llvm.mlir.global external thread_local @tls(0 : i64) {addr_space = 0 : i32, tls_model = "initialexec"} : i64
; CHECK-NEXT:   llvm.mlir.global external @ptrs() {addr_space = 0 : i32} : !llvm.array<2 x !llvm.ptr> {
; CHECK:          llvm.mlir.addressof @counter : !llvm.ptr
; CHECK:          llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, i8
; CHECK:        }
; CHECK-NEXT:   llvm.mlir.global external @ext() {addr_space = 0 : i32} : i32
; CHECK-NEXT:   llvm.mlir.global extern_weak @weak() {addr_space = 0 : i32} : i32
; CHECK-NEXT:   llvm.mlir.global common @common(0 : i64) {addr_space = 0 : i32, alignment = 8 : i64} : i64
; CHECK-NEXT:   llvm.mlir.global appending @ctors() {addr_space = 0 : i32} : !llvm.array<1 x !llvm.struct<(i32, !llvm.ptr, !llvm.ptr)>> {
; CHECK:        }
; CHECK-NEXT:   llvm.mlir.alias external @alias {value_type = i32} : !llvm.ptr {
; CHECK-NEXT:     %[[C:.*]] = llvm.mlir.addressof @counter : !llvm.ptr
; CHECK-NEXT:     llvm.return %[[C]] : !llvm.ptr
; CHECK-NEXT:   }
; CHECK-NEXT:   llvm.mlir.alias external @hidden_alias {visibility_ = 1 : i64, value_type = !llvm.array<6 x i8>} : !llvm.ptr {
; CHECK:        llvm.func internal @init() {
; CHECK:        llvm.func extern_weak @maybe()

; LLVM:      target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
; LLVM-NEXT: target triple = "x86_64-pc-linux-gnu"
; LLVM-NEXT: $dedup = comdat any
; LLVM:      %struct.Point = type { double, double }
; LLVM:      @counter = internal global i32 42, align 4
; LLVM:      @pi = dso_local constant double 3.500000e+00, align 8
; LLVM:      @table = private unnamed_addr constant [4 x i16] [i16 1, i16 -2, i16 3, i16 4], align 2
; LLVM:      @message = linkonce_odr hidden constant [6 x i8] c"hello\00", comdat($dedup), align 1
; LLVM:      @origin = global %struct.Point { double 1.000000e+00, double -1.000000e+00 }, section ".mydata", align 16
; LLVM:      @tls = thread_local(initialexec) global i64 0
; LLVM:      @ptrs = global [2 x ptr] [ptr @counter, ptr getelementptr (i8, ptr @table, i64 2)]
; LLVM:      @ext = external global i32
; LLVM:      @weak = extern_weak global i32
; LLVM:      @common = common global i64 0, align 8
; LLVM:      @ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
; LLVM:      @alias = alias i32, ptr @counter
; LLVM:      @hidden_alias = hidden alias [6 x i8], ptr @message
; LLVM:      define internal void @init() {
; LLVM:      declare extern_weak void @maybe()
