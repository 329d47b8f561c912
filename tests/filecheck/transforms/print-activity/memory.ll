; RUN: xenzyme-opt %s -p 'print-activity{function=f args=dup,active,const}' | filecheck %s

; Activity through memory.  Pointers into memory that may hold varied data are `dup` (they get a
; shadow): a pointer loaded from duplicated memory, an address computed from one, and a local
; array once a varied value is stored into it.  An alloca that only ever holds constant data
; stays `const`.  Block arguments are reported in block_activity, block by block.

define double @f(ptr %pp, double %x, i64 %n) {
entry:
  %p = load ptr, ptr %pp, align 8
  %q = getelementptr inbounds double, ptr %p, i64 1
  %buf = alloca [4 x double], align 8
  %b1 = getelementptr inbounds [4 x double], ptr %buf, i64 0, i64 1
  %cnt.slot = alloca double, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %acc = phi double [ %x, %entry ], [ %accnext, %loop ]
  %cnt = phi double [ 0.0, %entry ], [ %cntnext, %loop ]
  %v = load double, ptr %q, align 8
  %accnext = fmul double %acc, %v
  %cntnext = fadd double %cnt, 1.0
  %inext = add i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop
exit:
  store double %accnext, ptr %b1, align 8
  store double %cntnext, ptr %cnt.slot, align 8
  %w = load double, ptr %b1, align 8
  %k = load double, ptr %cnt.slot, align 8
  %r = fadd double %w, %k
  ret double %r
}

; CHECK-LABEL: llvm.func @f(
; CHECK-SAME:      attributes {arg_activity = ["dup", "active", "const"], block_activity = ["const", "active", "const"]}
; CHECK:         %p = llvm.load %pp {activity = ["dup"], alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
; CHECK-NEXT:    %q = llvm.getelementptr inbounds %p[1] {activity = ["dup"]}
; CHECK-NEXT:    %buf = llvm.alloca %{{.*}} x !llvm.array<4 x f64> {activity = ["dup"], alignment = 8 : i64}
; CHECK-NEXT:    %b1 = llvm.getelementptr inbounds %buf[0, 1] {activity = ["dup"]}
; CHECK-NEXT:    %cnt.slot = llvm.alloca %{{.*}} x f64 {activity = ["const"], alignment = 8 : i64}
; CHECK:       ^loop(%i: i64, %acc: f64, %cnt: f64):
; CHECK-NEXT:    %v = llvm.load %q {activity = ["active"], alignment = 8 : i64}
; CHECK-NEXT:    %accnext = llvm.fmul %acc, %v {activity = ["active"]}
; CHECK-NEXT:    %cntnext = llvm.fadd %cnt, %{{.*}} {activity = ["const"]}
; CHECK-NEXT:    %inext = llvm.add %i, %{{.*}} {activity = ["const"]}
; CHECK-NEXT:    %done = llvm.icmp "eq" %inext, %n {activity = ["const"]}
; CHECK:       ^exit:
; CHECK:         %w = llvm.load %b1 {activity = ["active"], alignment = 8 : i64}
; CHECK-NEXT:    %k = llvm.load %cnt.slot {activity = ["const"], alignment = 8 : i64}
; CHECK-NEXT:    %r = llvm.fadd %w, %k {activity = ["active"]}
