; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s
; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s --check-prefix=FWD

; @g writes doubles with derivatives into its buffer, then exchanges them as a vector of two
; integers, with volatile accesses (which are not retyped as floats).  The integers stored are
; bits of those doubles moved by a shuffle: an error, in both modes, where a zeroed shadow would
; silently drop the derivative.  (Plain accesses are retyped as doubles and differentiated:
; tests/programs/ad/generic_byte_moves.c.)

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)

define void @g(ptr %p, double %x) {
  %q = getelementptr inbounds double, ptr %p, i64 1
  %y = fmul double %x, %x
  store double %x, ptr %p, align 8
  store double %y, ptr %q, align 8
  %v = load volatile <2 x i64>, ptr %p, align 8
  %s = shufflevector <2 x i64> %v, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store volatile <2 x i64> %s, ptr %p, align 8
  ret void
}

define void @h(ptr %p, ptr %dp, double %x) {
  call void (...) @__enzyme_autodiff(ptr @g, ptr %p, ptr %dp, double %x)
  ret void
}

define void @k(ptr %p, ptr %dp, double %x) {
  call void (...) @__enzyme_fwddiff(ptr @g, ptr %p, ptr %dp, double %x, double 1.0)
  ret void
}

; CHECK: xenzyme-opt: error: prog.c: cannot differentiate @g: cannot tell whether the bytes copied here (as an integer) hold floating-point data
; CHECK-NEXT: note: in: store volatile <2 x i64> %s, ptr %p, align 8
; CHECK-NOT:  Traceback
; FWD: xenzyme-opt: error: prog.c: cannot differentiate @g in forward mode: cannot tell whether the bytes copied here (as an integer) hold floating-point data
