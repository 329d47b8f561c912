; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; The bits of a double with a tangent written by an integer cmpxchg: the shadow cannot follow,
; and a stale tangent would be left in it.

source_filename = "prog.c"

declare void @__enzyme_fwddiff(...)

define void @f(ptr %p, double %x) {
  %b = bitcast double %x to i64
  %o = load i64, ptr %p
  %r = cmpxchg ptr %p, i64 %o, i64 %b seq_cst seq_cst
  ret void
}

define void @g(ptr %p, ptr %dp, double %x) {
  call void (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, double %x, double 1.0)
  ret void
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f in forward mode: an integer cmpxchg writes floating-point data with a derivative; forward mode cannot carry its tangent
; CHECK-NEXT: note: in: %r = cmpxchg ptr %p, i64 %o, i64 %b seq_cst seq_cst, align 8
; CHECK-NEXT: note: use atomicrmw fadd/fsub/xchg on the floating-point type, or plain loads and stores outside parallel code
; CHECK-NOT:  Traceback
