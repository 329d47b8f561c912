; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s

; Where adjoints live.  The adjoint of an op's floating-point result (scalar or vector) is an SSA
; value while every contribution to it and its one read (where the op is reversed) are built in
; one reverse block: the first contribution is used as is, later ones are added with fadd, and
; there is no stack slot to load, store and clear.  A contribution or read in another block
; sends the sum so far into a stack slot %d_<name> (autodiff.accumulate right after the sum),
; and the slot is used from then on: later contributions are accumulated into it and the read
; is a load.  Arguments, block arguments (phis) and values passed along an edge keep slots.

declare { double, double } @__enzyme_autodiff(...)
declare double @__enzyme_autodiff1(...)
declare double @llvm.sin.f64(double)

; %t is used twice in one block: d_t = seed + seed * cos(t), one fadd, no slot for it.
define double @twice(double %x, double %y) {
  %t = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %t)
  %r = fadd double %s, %t
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffetwice(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK:         %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK:         %[[DY:d_y[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[T:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
; CHECK:         llvm.br ^[[REV:[a-z0-9]+]]
; CHECK-NEXT:  ^[[REV]]:
; CHECK-NEXT:    %[[COS:.*]] = llvm.intr.cos(%[[T]]) : (f64) -> f64
; CHECK-NEXT:    %[[DS:.*]] = llvm.fmul %[[SEED]], %[[COS]] : f64
; CHECK-NEXT:    %[[DT:.*]] = llvm.fadd %[[SEED]], %[[DS]] : f64
; CHECK-NEXT:    %[[GX:.*]] = llvm.fmul %[[DT]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[GX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[GY:.*]] = llvm.fmul %[[DT]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DY]], %[[GY]] : !llvm.ptr, f64
; CHECK-NOT:     llvm.fadd
; CHECK:         llvm.return

; %t is defined in the entry block and used in both branches: in the reverse of %neg, its two
; contributions (t * t) are added with one fadd and the sum goes into %t's slot right there;
; the reverse of %pos accumulates into the slot; the reverse of the entry block loads it.
define double @across(double %x, double %y) {
entry:
  %t = fmul double %x, %y
  %c = fcmp olt double %x, 0.0
  br i1 %c, label %neg, label %pos
neg:
  %a = fmul double %t, %t
  br label %join
pos:
  %b = call double @llvm.sin.f64(double %t)
  br label %join
join:
  %r = phi double [ %a, %neg ], [ %b, %pos ]
  ret double %r
}

; CHECK-LABEL: llvm.func internal @diffeacross(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %[[SEED:[^:]+]]: f64) -> !llvm.struct<(f64, f64)>
; CHECK-DAG:     %[[DR:d_r[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DA:d_a[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DB:d_b[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DT:d_t[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DY:d_y[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK:         %[[T:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
; CHECK:         llvm.cond_br %{{.*}}, ^[[NEG:[a-z0-9]+]], ^[[POS:[a-z0-9]+]]

; The phi's adjoint (a slot) goes to %b's or %a's on the edge the primal took.
; CHECK:         autodiff.accumulate %[[DR]], %[[SEED]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[DRV:.*]] = llvm.load %[[DR]] : !llvm.ptr -> f64
; CHECK:         llvm.switch %{{.*}} : i8, ^[[EPOS:[a-z0-9]+]] [1: ^[[ENEG:[a-z0-9]+]]]
; CHECK-NEXT:  ^[[EPOS]]:
; CHECK-NEXT:    autodiff.accumulate %[[DB]], %[[DRV]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[RPOS:[a-z0-9]+]]
; CHECK-NEXT:  ^[[ENEG]]:
; CHECK-NEXT:    autodiff.accumulate %[[DA]], %[[DRV]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[RNEG:[a-z0-9]+]]

; Reverse of %neg: a = t * t, both contributions summed in registers, then into %t's slot.
; CHECK-NEXT:  ^[[RNEG]]:
; CHECK-NEXT:    %[[DAV:.*]] = llvm.load %[[DA]] : !llvm.ptr -> f64
; CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[DA]] : f64, !llvm.ptr
; CHECK-NEXT:    %[[C1:.*]] = llvm.fmul %[[DAV]], %[[T]] : f64
; CHECK-NEXT:    %[[C2:.*]] = llvm.fmul %[[DAV]], %[[T]] : f64
; CHECK-NEXT:    %[[SUM:.*]] = llvm.fadd %[[C1]], %[[C2]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DT]], %[[SUM]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[EDGE1:[a-z0-9]+]]
; CHECK-NEXT:  ^[[EDGE1]]:
; CHECK-NEXT:    llvm.br ^[[RENTRY:[a-z0-9]+]]

; Reverse of %pos: b = sin(t), into %t's slot.
; CHECK-NEXT:  ^[[RPOS]]:
; CHECK-NEXT:    %[[DBV:.*]] = llvm.load %[[DB]] : !llvm.ptr -> f64
; CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[DB]] : f64, !llvm.ptr
; CHECK-NEXT:    %[[COS:.*]] = llvm.intr.cos(%[[T]]) : (f64) -> f64
; CHECK-NEXT:    %[[C3:.*]] = llvm.fmul %[[DBV]], %[[COS]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DT]], %[[C3]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br ^[[EDGE2:[a-z0-9]+]]
; CHECK-NEXT:  ^[[EDGE2]]:
; CHECK-NEXT:    llvm.br ^[[RENTRY]]

; Reverse of the entry block: %t's adjoint read from its slot, t = x * y.
; CHECK-NEXT:  ^[[RENTRY]]:
; CHECK-NEXT:    %[[DTV:.*]] = llvm.load %[[DT]] : !llvm.ptr -> f64
; CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[DT]] : f64, !llvm.ptr
; CHECK-NEXT:    %[[GX:.*]] = llvm.fmul %[[DTV]], %[[Y]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[GX]] : !llvm.ptr, f64
; CHECK-NEXT:    %[[GY:.*]] = llvm.fmul %[[DTV]], %[[X]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DY]], %[[GY]] : !llvm.ptr, f64
; CHECK:         llvm.return

; A value passed along a loop's back edge only: its adjoint is a slot, which the back edge of
; the reverse adds the header phi's adjoint to, and which the reverse of the body reads (on the
; next trip through it), so that every iteration adds the seed to d_x.
define double @carried(double %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %body ]
  %acc = phi double [ 0.0, %entry ], [ %accnext, %body ]
  %c = icmp slt i64 %i, %n
  br i1 %c, label %body, label %exit
body:
  %accnext = fadd double %acc, %x
  %inext = add i64 %i, 1
  br label %loop
exit:
  ret double %acc
}

; CHECK-LABEL: llvm.func internal @diffecarried(
; CHECK-SAME:      %[[X:[^:]+]]: f64, %{{[^:]+}}: i64, %[[SEED:[^:]+]]: f64) -> f64
; CHECK-DAG:     %[[DNEXT:d_accnext[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DACC:d_acc[_0-9]*]] = llvm.alloca %{{.*}} x f64
; CHECK-DAG:     %[[DX:d_x[_0-9]*]] = llvm.alloca %{{.*}} x f64

; Reverse of the body: accnext = acc + x.
; CHECK:         %[[DN:.*]] = llvm.load %[[DNEXT]] : !llvm.ptr -> f64
; CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(-0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %{{.*}}, %[[DNEXT]] : f64, !llvm.ptr
; CHECK-NEXT:    autodiff.accumulate %[[DACC]], %[[DN]] : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[DN]] : !llvm.ptr, f64

; Reverse of the exit, then of the header: the phi's adjoint, passed back on the back edge.
; CHECK:         autodiff.accumulate %[[DACC]], %[[SEED]] : !llvm.ptr, f64
; CHECK:         %[[DA:.*]] = llvm.load %[[DACC]] : !llvm.ptr -> f64
; CHECK:         llvm.cond_br %{{.*}}, ^[[BACK:[a-z0-9]+]], ^{{[a-z0-9]+}}
; CHECK:       ^[[BACK]]:
; CHECK:         autodiff.accumulate %[[DNEXT]], %[[DA]] : !llvm.ptr, f64
; CHECK-NEXT:    llvm.br
; CHECK:         %[[G:.*]] = llvm.load %[[DX]] : !llvm.ptr -> f64
; CHECK:         llvm.return %[[G]] : f64

define void @g(double %x, double %y, i64 %n) {
  %1 = call { double, double } (...) @__enzyme_autodiff(ptr @twice, double %x, double %y)
  %2 = call { double, double } (...) @__enzyme_autodiff(ptr @across, double %x, double %y)
  %3 = call double (...) @__enzyme_autodiff1(ptr @carried, double %x, i64 %n)
  ret void
}
