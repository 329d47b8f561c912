; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Calls: direct, indirect, variadic, tail kinds, calling conventions, parameter/return/function
; attributes, metadata arguments and inline assembly.

declare i32 @callee(i32 noundef, ptr nocapture readonly) #0
declare fastcc double @fast(double)
declare i32 @printf(ptr noundef, ...)
declare void @__enzyme_autodiff(...)
; Declarations keep their parameter attributes (xDSL's printer does not show them).
; LLVM: declare i32 @callee(i32 noundef, ptr readonly captures(none)) nounwind "frame-pointer"="all"

define i32 @calls(i32 %x, ptr %p, ptr %fp, double %d) {
  %r0 = call i32 @callee(i32 noundef %x, ptr nonnull align 8 dereferenceable(16) %p) #1
  %r1 = tail call fastcc double @fast(double %d)
  %r2 = notail call i32 %fp(i32 %x, ptr %p)
  ret i32 %r2
}

; CHECK-LABEL: llvm.func @calls(%x: i32, %p: !llvm.ptr, %fp: !llvm.ptr, %d: f64) -> i32 {
; CHECK-NEXT:    %r0 = llvm.call @callee(%x, %p) {arg_attrs = [{llvm.noundef}, {llvm.nonnull, llvm.align = 8 : i64, llvm.dereferenceable = 16 : i64}], fn_attrs = ["nounwind"]} : (i32, !llvm.ptr) -> i32
; CHECK-NEXT:    %r1 = llvm.call fastcc tail @fast(%d) : (f64) -> f64
; CHECK-NEXT:    %r2 = llvm.call notail %fp(%x, %p) : !llvm.ptr, (i32, !llvm.ptr) -> i32

; LLVM-LABEL: define i32 @calls(
; LLVM-NEXT:    %r0 = call i32 @callee(i32 noundef %x, ptr nonnull align 8 dereferenceable(16) %p) nounwind
; LLVM-NEXT:    %r1 = tail call fastcc double @fast(double %d)
; LLVM-NEXT:    %r2 = notail call i32 %fp(i32 %x, ptr %p)

define i32 @forward(i32 %y, ptr %target) {
  %r3 = musttail call i32 %target(i32 %y, ptr %target)
  ret i32 %r3
}
; CHECK-LABEL: llvm.func @forward(
; CHECK-NEXT:    %r3 = llvm.call musttail %target(%y, %target) : !llvm.ptr, (i32, !llvm.ptr) -> i32
; LLVM-LABEL: define i32 @forward(
; LLVM-NEXT:    %r3 = musttail call i32 %target(i32 %y, ptr %target)

define void @variadic(ptr %fmt, double %dv) {
  %n = call i32 (ptr, ...) @printf(ptr noundef %fmt, double %dv, i32 7)
  call void (...) @__enzyme_autodiff(ptr @calls, metadata !"enzyme_dup", ptr %fmt, ptr %fmt, metadata !"enzyme_out", double %dv)
  %s = call noundef zeroext i8 asm sideeffect "movb $$1, $0", "=r,~{dirflag}"()
  ret void
}
; CHECK-LABEL: llvm.func @variadic(%fmt: !llvm.ptr, %dv: f64) {
; CHECK-DAG:     %[[DUP:.*]] = llvm.mlir.metadata "!\22enzyme_dup\22"
; CHECK-DAG:     %[[OUT:.*]] = llvm.mlir.metadata "!\22enzyme_out\22"
; CHECK-DAG:     %[[F:.*]] = llvm.mlir.addressof @calls : !llvm.ptr
; CHECK:         %n = llvm.call @printf(%fmt, %dv, %{{.*}}) vararg(!llvm.func<i32 (!llvm.ptr, ...)>) {arg_attrs = [{llvm.noundef}, {}, {}]} : (!llvm.ptr, f64, i32) -> i32
; CHECK-NEXT:    llvm.call @__enzyme_autodiff(%[[F]], %[[DUP]], %fmt, %fmt, %[[OUT]], %dv) vararg(!llvm.func<void (...)>) : (!llvm.ptr, !llvm.metadata, !llvm.ptr, !llvm.ptr, !llvm.metadata, f64) -> ()
; CHECK-NEXT:    %s = llvm.inline_asm has_side_effects "movb $$1, $0", "=r,~{dirflag}" {res_attrs = [{llvm.noundef, llvm.zeroext}]} : () -> i8

; LLVM-LABEL: define void @variadic(
; LLVM-NEXT:    %n = call i32 (ptr, ...) @printf(ptr noundef %fmt, double %dv, i32 7)
; LLVM-NEXT:    call void (...) @__enzyme_autodiff(ptr @calls, metadata !"enzyme_dup", ptr %fmt, ptr %fmt, metadata !"enzyme_out", double %dv)
; LLVM-NEXT:    %s = call noundef zeroext i8 asm sideeffect "movb $$1, $0", "=r,~{dirflag}"()

define internal fastcc noundef nonnull ptr @attrs(ptr noalias nocapture byval(i64) align 8 %out, i32 signext %v) unnamed_addr #0 {
  ret ptr %out
}
; CHECK-LABEL: llvm.func internal fastcc unnamed_addr @attrs(
; CHECK-SAME:    %out: !llvm.ptr {llvm.noalias, llvm.byval = i64, llvm.align = 8 : i64, llvm.captures = "none"}
; CHECK-SAME:    %v: i32 {llvm.signext})
; CHECK-SAME:    -> (!llvm.ptr {llvm.noundef, llvm.nonnull})
; CHECK-SAME:    attributes {passthrough = ["nounwind", ["frame-pointer", "all"]]}

; LLVM-LABEL: define internal fastcc noundef nonnull ptr @attrs(ptr noalias byval(i64) align 8 captures(none) %out, i32 signext %v) unnamed_addr nounwind "frame-pointer"="all" {

attributes #0 = { nounwind "frame-pointer"="all" }
attributes #1 = { nounwind }
