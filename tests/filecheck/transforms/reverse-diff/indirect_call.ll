; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Indirect calls.  The pointer is traced to where it comes from: loaded from the constant table
; @ops, it can only hold @sq or @cube, so the call becomes a comparison choosing between direct
; calls to their augmented forward functions, and the reverse sweep calls the reverse function
; of the one the forward sweep took.  The pointer %g, an argument, may hold any function of its
; type whose address is taken (@sq, @cube, @half): those are compared in turn, and any other
; pointer stops the program (write + abort) instead of producing a wrong derivative.  The
; second call through %g has no derivative: it stays an indirect call.

@ops = internal constant [2 x ptr] [ptr @sq, ptr @cube], align 16
@keep = global ptr @half, align 8

declare double @__enzyme_autodiff(...)

define internal double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define internal double @cube(double %x) {
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}

define internal double @half(double %x) {
  %r = fmul double %x, 5.000000e-01
  ret double %r
}

define double @f(double %x, i64 %k, ptr %g) {
  %slot = getelementptr inbounds [2 x ptr], ptr @ops, i64 0, i64 %k
  %op = load ptr, ptr %slot, align 8
  %a = call double %op(double %x)
  %b = call double %g(double %a)
  %c = call double %g(double 2.000000e+00)
  %r = fadd double %b, %c
  ret double %r
}

define double @df(double %x, i64 %k, ptr %g) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x, i64 %k, metadata !"enzyme_const", ptr %g)
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[K:[^:]+]]: i64, %[[G:[^:]+]]: !llvm.ptr, %{{[^:]+}}: f64) -> f64

; The table holds two functions: one comparison, the last candidate is the default.
; CHECK:         %[[OP:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
; CHECK-NEXT:    %[[SQ:.*]] = llvm.mlir.addressof @sq : !llvm.ptr
; CHECK-NEXT:    %[[IS_SQ:.*]] = llvm.icmp "eq" %[[OP]], %[[SQ]] : !llvm.ptr
; CHECK-NEXT:    llvm.cond_br %[[IS_SQ]], ^{{.*}}, ^{{.*}}
; CHECK-DAG:     %{{.*}} = llvm.call @augmented_sq(%[[X]]) : (f64) -> !llvm.struct<(f64, !llvm.ptr)>
; CHECK-DAG:     %{{.*}} = llvm.call @augmented_cube(%[[X]]) : (f64) -> !llvm.struct<(f64, !llvm.ptr)>
; CHECK-NOT:     llvm.call %

; The argument may hold any of the three: three comparisons, then the stop.
; CHECK:         ^{{.*}}(%[[A:.*]]: f64, %{{.*}}: i8):
; CHECK:         %[[SQ2:.*]] = llvm.mlir.addressof @sq : !llvm.ptr
; CHECK-NEXT:    llvm.icmp "eq" %[[G]], %[[SQ2]] : !llvm.ptr
; CHECK:         %[[CUBE2:.*]] = llvm.mlir.addressof @cube : !llvm.ptr
; CHECK-NEXT:    llvm.icmp "eq" %[[G]], %[[CUBE2]] : !llvm.ptr
; CHECK:         %[[HALF:.*]] = llvm.mlir.addressof @half : !llvm.ptr
; CHECK-NEXT:    llvm.icmp "eq" %[[G]], %[[HALF]] : !llvm.ptr
; CHECK:         %[[MSG:.*]] = llvm.mlir.addressof @xenzyme.message : !llvm.ptr
; CHECK:         llvm.call @write(%{{.*}}, %[[MSG]], %{{.*}}) : (i32, !llvm.ptr, i64) -> i64
; CHECK-NEXT:    llvm.call @abort() : () -> ()
; CHECK-DAG:     llvm.call @augmented_half(%[[A]])
; CHECK-DAG:     llvm.call @augmented_cube(%[[A]])
; CHECK-DAG:     llvm.call @augmented_sq(%[[A]])
; CHECK:         %{{.*}} = llvm.call %[[G]](%{{.*}}) : !llvm.ptr, (f64) -> f64
; CHECK-NOT:     llvm.icmp "eq" %[[G]]

; The reverse sweep: the branch taken was recorded; the matching reverse function is called.
; CHECK:         %[[WHICH:.*]] = autodiff.cache.peek %{{.*}} : !autodiff.cache<i8>
; CHECK:         llvm.switch %[[WHICH]] : i8
; CHECK-DAG:     llvm.call @reverse_half(%[[A]],
; CHECK-DAG:     llvm.call @reverse_cube(%[[A]],
; CHECK-DAG:     llvm.call @reverse_sq(%[[A]],
; CHECK-DAG:     llvm.call @reverse_cube(%[[X]],
; CHECK-DAG:     llvm.call @reverse_sq(%[[X]],
; CHECK:         llvm.return

; The message, a constant string.
; CHECK:       llvm.mlir.global private constant @xenzyme.message("xenzyme: in the derivative of @f, a function pointer leads to a function that is not one of the candidates {{.*}}\0A")
