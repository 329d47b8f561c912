; RUN: not xenzyme-opt %s -p raise-enzyme-calls,reverse-diff 2>&1 | filecheck %s

; An active value stored through a pointer marked enzyme_const and read back into the result:
; the derivative would be lost.  (Stored there and not read back, it is what the caller asked
; for: memory whose derivative nobody wants, like a running statistic.)

source_filename = "prog.c"

@enzyme_const = external global i32

declare void @__enzyme_autodiff(...)

define double @f(double %x, ptr %out) {
  %m = fmul double %x, %x
  store double %m, ptr %out, align 8
  %r = load double, ptr %out, align 8
  ret double %r
}

define double @g(double %x, ptr %o) {
  %c = load i32, ptr @enzyme_const
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, ptr %o)
  ret double %d
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: active data is stored through argument 1, which has no shadow (const)
; CHECK-NEXT: note: in: store double %m, ptr %out, align 8
; CHECK-NEXT: note: mark argument 1 enzyme_dup with a shadow, or the stored value enzyme_const
; CHECK-NOT:  Traceback
