; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Split-mode requests become calls of the augmented forward function and the reverse function.
; The augmented function returns {primal result, tape}, rearranged into Enzyme's {tape, primal
; result}; the reverse function takes the arguments, the return adjoint and the tape, and frees
; the tape.  With enzyme_allocated the augmented function takes the caller's buffer as its last
; argument and lays its tape out there (no malloc), the reverse function reads it from there and
; does not free it, and __enzyme_augmentsize is the constant size of that layout (here one f64:
; the load of %x, which the caller may overwrite between the halves, is kept).

@enzyme_dup = external global i32
@enzyme_out = external global i32
@enzyme_tape = external global i32
@enzyme_allocated = external global i32

declare { ptr, double } @__enzyme_augmentfwd(...)
declare double @__enzyme_augmentfwd_d(...)
declare double @__enzyme_reverse(...)
declare i32 @__enzyme_augmentsize(...)

define double @h(ptr %x, double %c) {
  %v = load double, ptr %x
  %s = fmul double %v, %c
  ret double %s
}

; CHECK-LABEL: llvm.func internal @augmented_h.2(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: f64) -> !llvm.struct<(f64, !llvm.ptr)>
; CHECK:         %[[T:.*]] = llvm.call @malloc(
; CHECK:         llvm.insertvalue %[[T]], %{{.*}}[1]

; CHECK-LABEL: llvm.func internal @reverse_h.2(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: f64, %{{[^:]+}}: f64, %[[T:[^:]+]]: !llvm.ptr) -> f64
; CHECK:         llvm.call @free(%[[T]])

; CHECK-LABEL: llvm.func internal @augmented_h(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: f64, %[[BUF:[^:]+]]: !llvm.ptr) -> !llvm.struct<(f64, !llvm.ptr)>
; CHECK-NOT:     @malloc
; CHECK:         llvm.getelementptr %[[BUF]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f64)>
; CHECK:         llvm.return

; CHECK-LABEL: llvm.func internal @reverse_h(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: f64, %{{[^:]+}}: f64, %[[BUF:[^:]+]]: !llvm.ptr) -> f64
; CHECK:         autodiff.cache.attach single
; CHECK-NOT:     @free
; CHECK:         llvm.return

; CHECK-LABEL: llvm.func @returned(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: f64, %[[D:[^:]+]]: f64)
; CHECK:         %[[A:.*]] = llvm.call @augmented_h.2(%[[X]], %[[DX]], %[[C]])
; CHECK-NEXT:    %[[P:.*]] = llvm.extractvalue %[[A]][0] : !llvm.struct<(f64, !llvm.ptr)>
; CHECK-NEXT:    %[[T:.*]] = llvm.extractvalue %[[A]][1] : !llvm.struct<(f64, !llvm.ptr)>
; CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, f64)>
; CHECK-NEXT:    %[[U1:.*]] = llvm.insertvalue %[[T]], %[[U]][0]
; CHECK-NEXT:    %[[R:.*]] = llvm.insertvalue %[[P]], %[[U1]][1]
; CHECK-NEXT:    %[[TAPE:.*]] = llvm.extractvalue %[[R]][0]
; CHECK-NEXT:    %{{.*}} = llvm.call @reverse_h.2(%[[X]], %[[DX]], %[[C]], %[[D]], %[[TAPE]])
define double @returned(ptr %x, ptr %dx, double %c, double %d) {
  %r = call { ptr, double } (...) @__enzyme_augmentfwd(ptr @h, ptr %x, ptr %dx, double %c)
  %tape = extractvalue { ptr, double } %r, 0
  %g = call double (...) @__enzyme_reverse(ptr @h, ptr %x, ptr %dx, double %c, double %d, ptr %tape)
  ret double %g
}

; CHECK-LABEL: llvm.func @allocated(
; CHECK-SAME:      %[[X:[^:]+]]: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: f64)
; CHECK:         %[[SZ:.*]] = llvm.mlir.constant(8 : i32) : i32
; CHECK:         %[[BUF:.*]] = llvm.alloca %[[SZ]] x i8
; CHECK:         llvm.call @augmented_h(%[[X]], %[[DX]], %[[C]], %[[BUF]])
; CHECK:         llvm.call @reverse_h(%[[X]], %[[DX]], %[[C]], %{{.*}}, %[[BUF]])
define double @allocated(ptr %x, ptr %dx, double %c) {
  %m = load i32, ptr @enzyme_dup
  %o = load i32, ptr @enzyme_out
  %a = load i32, ptr @enzyme_allocated
  %t = load i32, ptr @enzyme_tape
  %size = call i32 (...) @__enzyme_augmentsize(ptr @h, i32 %m, i32 %o)
  %buf = alloca i8, i32 %size
  %v = call double (...) @__enzyme_augmentfwd_d(ptr @h, i32 %a, i32 %size, i32 %t, ptr %buf, i32 %m, ptr %x, ptr %dx, i32 %o, double %c)
  %g = call double (...) @__enzyme_reverse(ptr @h, i32 %m, ptr %x, ptr %dx, i32 %o, double %c, i32 %a, i32 %size, i32 %t, ptr %buf)
  %s = fadd double %v, %g
  ret double %s
}
