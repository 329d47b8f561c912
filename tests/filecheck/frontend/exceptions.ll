; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; C++ exception handling: invoke (a terminator with normal and unwind successors), landingpad,
; resume, and the personality function.

@_ZTIi = external constant ptr

declare i32 @__gxx_personality_v0(...)
declare i32 @may_throw(i32)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()

define i32 @guarded(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @may_throw(i32 %x)
          to label %ok unwind label %lpad
ok:
  ret i32 %r
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr @_ZTIi
  %sel = extractvalue { ptr, i32 } %lp, 1
  %caught = icmp eq i32 %sel, 1
  br i1 %caught, label %handler, label %rethrow
handler:
  %exn = extractvalue { ptr, i32 } %lp, 0
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  call void @__cxa_end_catch()
  ret i32 -1
rethrow:
  resume { ptr, i32 } %lp
}
; CHECK-LABEL: llvm.func @guarded(%x: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
; CHECK-NEXT:    %[[TI:.*]] = llvm.mlir.addressof @_ZTIi : !llvm.ptr
; CHECK:         %r = llvm.invoke @may_throw(%x) to ^ok unwind ^lpad : (i32) -> i32
; CHECK-NEXT:  ^ok:
; CHECK-NEXT:    llvm.return %r : i32
; CHECK-NEXT:  ^lpad:
; CHECK-NEXT:    %lp = llvm.landingpad cleanup (catch %[[TI]] : !llvm.ptr) : !llvm.struct<(!llvm.ptr, i32)>
; CHECK:       ^rethrow:
; CHECK-NEXT:    llvm.resume %lp : !llvm.struct<(!llvm.ptr, i32)>

; LLVM-LABEL: define i32 @guarded(i32 %x) personality ptr @__gxx_personality_v0 {
; LLVM-NEXT:  entry:
; LLVM-NEXT:    %r = invoke i32 @may_throw(i32 %x) to label %ok unwind label %lpad
; LLVM-NEXT:  ok:
; LLVM-NEXT:    ret i32 %r
; LLVM-NEXT:  lpad:
; LLVM-NEXT:    %lp = landingpad { ptr, i32 } cleanup catch ptr @_ZTIi
; LLVM:       rethrow:
; LLVM-NEXT:    resume { ptr, i32 } %lp
