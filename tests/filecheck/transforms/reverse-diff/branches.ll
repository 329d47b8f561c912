; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Control flow without loops.  Where paths merge, the forward sweep passes a token saying which
; predecessor it came from; it is cached (`single`: outside any loop, one value) and the reverse
; sweep switches on it to go back the same way.  Phi (block argument) adjoints flow to the
; incoming value of the edge taken.

declare { double, double } @__enzyme_autodiff(...)

define double @f(double %x, double %y) {
entry:
  %c = fcmp ogt double %x, 0.0
  br i1 %c, label %then, label %else
then:
  %a = fmul double %x, %y
  br label %join
else:
  %b = fadd double %x, %y
  br label %join
join:
  %p = phi double [ %a, %then ], [ %b, %else ]
  %r = fmul double %p, %p
  ret double %r
}

define { double, double } @g(double %x, double %y) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %{{[^:]+}}: f64)
; CHECK:         %[[TOK:.*]] = autodiff.cache.init single : !autodiff.cache<i8>
; CHECK:         llvm.cond_br %{{.*}}, ^[[THEN:[a-z0-9]+]], ^[[ELSE:[a-z0-9]+]]

; Each edge into the join passes its token: 0 from the first predecessor (else), 1 from then.
; CHECK:       ^[[ELSE]]:
; CHECK-NEXT:    %[[B:.*]] = llvm.fadd %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %[[K0:.*]] = llvm.mlir.constant(0 : i8) : i8
; CHECK-NEXT:    llvm.br ^[[JOIN:[a-z0-9]+]](%[[B]], %[[K0]] : f64, i8)
; CHECK-NEXT:  ^[[THEN]]:
; CHECK-NEXT:    %[[A:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
; CHECK-NEXT:    %[[K1:.*]] = llvm.mlir.constant(1 : i8) : i8
; CHECK-NEXT:    llvm.br ^[[JOIN]](%[[A]], %[[K1]] : f64, i8)
; CHECK-NEXT:  ^[[JOIN]](%[[P:[^:]+]]: f64, %[[T:[^:]+]]: i8):
; CHECK-NEXT:    autodiff.cache.push %[[TOK]], %[[T]] : !autodiff.cache<i8>
; CHECK-NEXT:    %{{.*}} = llvm.fmul %[[P]], %[[P]] : f64

; Reverse of the join: the phi's adjoint, then a switch on the token.
; CHECK:         %[[DP:.*]] = llvm.load %d_p : !llvm.ptr -> f64
; CHECK:         %[[K:.*]] = autodiff.cache.peek %[[TOK]] : !autodiff.cache<i8>
; CHECK-NEXT:    autodiff.cache.pop %[[TOK]] : !autodiff.cache<i8>
; CHECK-NEXT:    llvm.switch %[[K]] : i8, ^[[FROM_ELSE:[a-z0-9]+]] [1: ^[[FROM_THEN:[a-z0-9]+]]]
; CHECK-NEXT:  ^[[FROM_ELSE]]:
; CHECK-NEXT:    autodiff.accumulate %d_b, %[[DP]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[REV_ELSE:[a-z0-9]+]]
; CHECK-NEXT:  ^[[FROM_THEN]]:
; CHECK-NEXT:    autodiff.accumulate %d_a, %[[DP]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[REV_THEN:[a-z0-9]+]]

; Reverse of then (x * y) and of else (x + y), both ending in the reverse of the entry.
; CHECK-NEXT:  ^[[REV_THEN]]:
; CHECK-NEXT:    %[[DA:.*]] = llvm.load %d_a : !llvm.ptr -> f64
; CHECK:         llvm.fmul %[[DA]], %[[Y]] : f64
; CHECK:         llvm.fmul %[[DA]], %[[X]] : f64
; CHECK:       ^[[REV_ELSE]]:
; CHECK-NEXT:    %[[DB:.*]] = llvm.load %d_b : !llvm.ptr -> f64
; CHECK:         autodiff.accumulate %d_x, %[[DB]] : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %d_y, %[[DB]] : !llvm.ptr, f64
; CHECK:         llvm.return %{{.*}} : !llvm.struct<(f64, f64)>
