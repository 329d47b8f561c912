; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; A pointer with a shadow put into a pair that is stored and read back as a whole (unoptimised
; code keeps its pairs so): the shadow would not follow, so this is an error, not a zero.

source_filename = "pair.c"

declare void @__enzyme_autodiff(...)

define double @f(ptr %p) {
  %slot = alloca { ptr, i64 }, align 8
  %s = insertvalue { ptr, i64 } undef, ptr %p, 0
  %s1 = insertvalue { ptr, i64 } %s, i64 1, 1
  store { ptr, i64 } %s1, ptr %slot, align 8
  %s2 = load { ptr, i64 }, ptr %slot, align 8
  %q = extractvalue { ptr, i64 } %s2, 0
  %v = load double, ptr %q, align 8
  %r = fmul double %v, %v
  ret double %r
}

define void @g(ptr %p, ptr %dp) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK:      xenzyme-opt: error: pair.c: cannot differentiate @f: a pointer with a shadow is put into an aggregate value that is then stored or passed to another block as a whole
; CHECK-NEXT: note: in: %s = insertvalue { ptr, i64 } undef, ptr %p, 0
; CHECK-NEXT: note: optimise before differentiating
; CHECK-NOT:  Traceback
