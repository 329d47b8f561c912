; RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

; Split mode.  __enzyme_augmentfwd becomes autodiff.augment, __enzyme_reverse autodiff.reverse,
; __enzyme_augmentsize autodiff.augmentsize.  Where the tape goes: returned (`tape value`: the
; augment's first field, the reverse's last argument); `enzyme_tape, slot` (`tape slot`: the
; pointer stored in / loaded from the slot); `enzyme_allocated, size, enzyme_tape, buf`
; (`tape buffer`: the tape itself in the caller's memory).  The reverse of a function with a
; floating-point return takes the return adjoint before the tape, or 1.0 when none is given.

@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32
@enzyme_tape = external global i32
@enzyme_allocated = external global i32

declare ptr @__enzyme_augmentfwd(...)
declare { ptr, double } @__enzyme_augmentfwd_r(...)
declare double @__enzyme_augmentfwd_d(...)
declare void @__enzyme_augmentfwd_v(...)
declare void @__enzyme_reverse(...)
declare double @__enzyme_reverse_d(...)
declare i64 @__enzyme_augmentsize(...)

define void @f(ptr %x, i32 %n) {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr %x
  ret void
}

define double @h(ptr %x, double %c) {
  %v = load double, ptr %x
  %s = fmul double %v, %c
  ret double %s
}

; CHECK-LABEL: llvm.func @returned(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i32)
; CHECK:         %[[T:.*]] = autodiff.augment @f(%[[X]], %[[DX]], %[[N]]) activity [dup, const] ret none tape value
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, i32) -> !llvm.ptr
; CHECK-NEXT:    autodiff.reverse @f(%[[X]], %[[DX]], %[[N]], %[[T]]) activity [dup, const] ret none tape value
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr) -> ()
define void @returned(ptr %x, ptr %dx, i32 %n) {
  %tape = call ptr (...) @__enzyme_augmentfwd(ptr @f, ptr %x, ptr %dx, i32 %n)
  call void (...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, i32 %n, ptr %tape)
  ret void
}

; A function returning a double: {tape, primal return}; the reverse takes the adjoint (%d),
; then the tape, and returns the derivative of the active scalar.
; CHECK-LABEL: llvm.func @with_return(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: f64, %[[D:[^:]+]]: f64)
; CHECK:         %[[R:.*]] = autodiff.augment @h(%[[X]], %[[DX]], %[[C]]) activity [dup, active] ret active tape value
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, f64) -> !llvm.struct<(!llvm.ptr, f64)>
; CHECK:         %[[T:.*]] = llvm.extractvalue %[[R]][0]
; CHECK:         %{{.*}} = autodiff.reverse @h(%[[X]], %[[DX]], %[[C]], %[[D]], %[[T]]) activity [dup, active] ret active tape value
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, f64, f64, !llvm.ptr) -> f64
define double @with_return(ptr %x, ptr %dx, double %c, double %d) {
  %r = call { ptr, double } (...) @__enzyme_augmentfwd_r(ptr @h, ptr %x, ptr %dx, double %c)
  %tape = extractvalue { ptr, double } %r, 0
  %g = call double (...) @__enzyme_reverse_d(ptr @h, ptr %x, ptr %dx, double %c, double %d, ptr %tape)
  ret double %g
}

; The tape in a buffer of __enzyme_augmentsize bytes: the augmented call returns the primal
; value alone ({f64}, read as a double); without a return adjoint the reverse seeds 1.0.
; CHECK-LABEL: llvm.func @allocated(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: f64)
; CHECK:         %[[SZ:.*]] = autodiff.augmentsize @h activity [dup, active] ret active : i64
; CHECK:         %[[BUF:.*]] = llvm.alloca %[[SZ]] x i8
; CHECK:         %[[R:.*]] = autodiff.augment @h(%[[X]], %[[DX]], %[[C]], %[[BUF]], %[[SZ]]) activity [dup, active] ret active tape buffer
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, f64, !llvm.ptr, i64) -> !llvm.struct<(f64)>
; CHECK:         %[[V:.*]] = llvm.extractvalue %[[R]][0]
; CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
; CHECK:         %{{.*}} = autodiff.reverse @h(%[[X]], %[[DX]], %[[C]], %[[ONE]], %[[BUF]], %[[SZ]]) activity [dup, active] ret active tape buffer
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, f64, f64, !llvm.ptr, i64) -> f64
define double @allocated(ptr %x, ptr %dx, double %c) {
  %m = load i32, ptr @enzyme_dup
  %o = load i32, ptr @enzyme_out
  %a = load i32, ptr @enzyme_allocated
  %t = load i32, ptr @enzyme_tape
  %size = call i64 (...) @__enzyme_augmentsize(ptr @h, i32 %m, i32 %o)
  %buf = alloca i8, i64 %size
  %v = call double (...) @__enzyme_augmentfwd_d(ptr @h, i32 %a, i64 %size, i32 %t, ptr %buf, i32 %m, ptr %x, ptr %dx, i32 %o, double %c)
  %g = call double (...) @__enzyme_reverse_d(ptr @h, i32 %m, ptr %x, ptr %dx, i32 %o, double %c, i32 %a, i64 %size, i32 %t, ptr %buf)
  %s = fadd double %v, %g
  ret double %s
}

; enzyme_tape without enzyme_allocated: the slot holds the tape pointer (metadata markers).
; CHECK-LABEL: llvm.func @slot(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[S:[^:]+]]: !llvm.ptr)
; CHECK:         autodiff.augment @f(%[[X]], %[[DX]], %{{.*}}, %[[S]]) activity [dup, const] ret none tape slot
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr) -> ()
; CHECK-NEXT:    autodiff.reverse @f(%[[X]], %[[DX]], %{{.*}}, %[[S]]) activity [dup, const] ret none tape slot
; CHECK-SAME:        : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr) -> ()
define void @slot(ptr %x, ptr %dx, ptr %slot) {
  call void (...) @__enzyme_augmentfwd_v(ptr @f, metadata !"enzyme_tape", ptr %slot, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_const", i32 4)
  call void (...) @__enzyme_reverse(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_const", i32 4, metadata !"enzyme_tape", ptr %slot)
  ret void
}

; No declaration of an entry point is left behind.
; CHECK-NOT: @__enzyme_
