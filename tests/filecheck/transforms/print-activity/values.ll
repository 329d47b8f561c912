; RUN: xenzyme-opt %s -p 'print-activity{function=f args=active,dup,const,const ret=active}' | filecheck %s
; RUN: xenzyme-opt %s -p 'print-activity{function=f args=const,dup,const,active ret=active}' | filecheck %s --check-prefix=SWAP
; RUN: xenzyme-opt %s -p 'print-activity{function=f args=active,dup,const,const ret=const}' | filecheck %s --check-prefix=NORET

; Activity of values: active = varied (depends on an active input) and useful (an active output
; depends on it).  Loads from duplicated memory are varied; integer code never is; a value that
; reaches no output is not useful, hence constant.

define double @f(double %x, ptr %p, i32 %n, double %c) {
  %v = load double, ptr %p, align 8
  %m = fmul double %x, %v
  %k = fmul double %c, 2.0
  %unused = fmul double %x, %x
  %i = mul i32 %n, 3
  %fi = sitofp i32 %i to double
  %r = fadd double %m, %k
  %s = fadd double %r, %fi
  ret double %s
}

; CHECK-LABEL: llvm.func @f(
; CHECK-SAME:      attributes {arg_activity = ["active", "dup", "const", "const"]}
; CHECK:         %v = llvm.load %p {activity = ["active"], alignment = 8 : i64}
; CHECK-NEXT:    %m = llvm.fmul %x, %v {activity = ["active"]}
; CHECK-NEXT:    %k = llvm.fmul %c, %{{.*}} {activity = ["const"]}
; CHECK-NEXT:    %unused = llvm.fmul %x, %x {activity = ["const"]}
; CHECK-NEXT:    %i = llvm.mul %n, %{{.*}} {activity = ["const"]}
; CHECK-NEXT:    %fi = llvm.sitofp %i {activity = ["const"]}
; CHECK-NEXT:    %r = llvm.fadd %m, %k {activity = ["active"]}
; CHECK-NEXT:    %s = llvm.fadd %r, %fi {activity = ["active"]}

; %c active instead of %x: %k is active, %m still is (through the load), %unused is not varied.
; SWAP-LABEL: llvm.func @f(
; SWAP-SAME:      attributes {arg_activity = ["const", "dup", "const", "active"]}
; SWAP:         %m = llvm.fmul %x, %v {activity = ["active"]}
; SWAP-NEXT:    %k = llvm.fmul %c, %{{.*}} {activity = ["active"]}
; SWAP-NEXT:    %unused = llvm.fmul %x, %x {activity = ["const"]}

; A constant return: nothing reaches an output, nothing is active, not even %x.
; NORET-LABEL: llvm.func @f(
; NORET-SAME:      attributes {arg_activity = ["const", "dup", "const", "const"]}
; NORET:         %v = llvm.load %p {activity = ["const"], alignment = 8 : i64}
; NORET-NEXT:    %m = llvm.fmul %x, %v {activity = ["const"]}
; NORET:         %s = llvm.fadd %r, %fi {activity = ["const"]}
; NORET-NOT:     "active"
