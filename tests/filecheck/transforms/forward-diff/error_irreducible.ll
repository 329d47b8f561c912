; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; A loop with two entries (a and b are both reached from entry and from each other).

source_filename = "prog.c"

declare double @__enzyme_fwddiff(...)

define double @f(double %x, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %pa = phi double [ %x, %entry ], [ %vb, %b ]
  %va = fmul double %pa, 2.0
  %ca = fcmp olt double %va, 100.0
  br i1 %ca, label %b, label %exit
b:
  %pb = phi double [ %x, %entry ], [ %va, %a ]
  %vb = fadd double %pb, 1.0
  br label %a
exit:
  ret double %va
}

define double @g(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i1 true)
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: irreducible control flow (a loop entered in more than one place)
; CHECK-NEXT: note: loops must have a single entry; restructure the code (e.g. avoid goto into loops)
; CHECK-NOT:  Traceback
