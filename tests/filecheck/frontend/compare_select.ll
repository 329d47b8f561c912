; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; icmp on integers, pointers and vectors (with samesign), fcmp with fast-math flags and every
; predicate spelling, select with scalar and per-lane conditions.

define i1 @icmps(i32 %a, i32 %b, ptr %p, ptr %q, <4 x i32> %va, <2 x ptr> %vp) {
  %eq = icmp eq i32 %a, %b
  %ult = icmp samesign ult i32 %a, %b
  %sge = icmp sge i32 %a, 7
  %peq = icmp ne ptr %p, null
  %pult = icmp ult ptr %p, %q
  %vcmp = icmp sgt <4 x i32> %va, zeroinitializer
  %vpcmp = icmp eq <2 x ptr> %vp, %vp
  ret i1 %eq
}
; CHECK-LABEL: llvm.func @icmps(
; CHECK-DAG:     %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
; CHECK-DAG:     %[[ZV:.*]] = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
; CHECK:         %eq = llvm.icmp "eq" %a, %b : i32
; CHECK-NEXT:    %ult = llvm.icmp "ult" samesign %a, %b : i32
; CHECK-NEXT:    %sge = llvm.icmp "sge" %a, %{{.*}} : i32
; CHECK-NEXT:    %peq = llvm.icmp "ne" %p, %[[NULL]] : !llvm.ptr
; CHECK-NEXT:    %pult = llvm.icmp "ult" %p, %q : !llvm.ptr
; CHECK-NEXT:    %vcmp = llvm.icmp "sgt" %va, %[[ZV]] : vector<4xi32>
; CHECK-NEXT:    %vpcmp = llvm.icmp "eq" %vp, %vp : vector<2x!llvm.ptr>

; LLVM-LABEL: define i1 @icmps(
; LLVM-NEXT:    %eq = icmp eq i32 %a, %b
; LLVM-NEXT:    %ult = icmp samesign ult i32 %a, %b
; LLVM-NEXT:    %sge = icmp sge i32 %a, 7
; LLVM-NEXT:    %peq = icmp ne ptr %p, null
; LLVM-NEXT:    %pult = icmp ult ptr %p, %q
; LLVM-NEXT:    %vcmp = icmp sgt <4 x i32> %va, zeroinitializer
; LLVM-NEXT:    %vpcmp = icmp eq <2 x ptr> %vp, %vp

define i1 @fcmps(double %x, double %y, <2 x float> %vx) {
  %f0 = fcmp false double %x, %y
  %f1 = fcmp oeq double %x, %y
  %f2 = fcmp nnan ogt double %x, %y
  %f3 = fcmp oge double %x, %y
  %f4 = fcmp olt double %x, %y
  %f5 = fcmp ole double %x, %y
  %f6 = fcmp one double %x, %y
  %f7 = fcmp ord double %x, %y
  %f8 = fcmp ueq double %x, %y
  %f9 = fcmp ugt double %x, %y
  %f10 = fcmp uge double %x, %y
  %f11 = fcmp ult double %x, %y
  %f12 = fcmp ule double %x, %y
  %f13 = fcmp une double %x, %y
  %f14 = fcmp uno double %x, %y
  %f15 = fcmp true double %x, %y
  %fv = fcmp fast olt <2 x float> %vx, %vx
  ret i1 %f2
}
; CHECK-LABEL: llvm.func @fcmps(
; CHECK-NEXT:    %f0 = llvm.fcmp "_false" %x, %y : f64
; CHECK-NEXT:    %f1 = llvm.fcmp "oeq" %x, %y : f64
; CHECK-NEXT:    %f2 = llvm.fcmp "ogt" %x, %y {fastmathFlags = #llvm.fastmath<nnan>} : f64
; CHECK:         %f14 = llvm.fcmp "uno" %x, %y : f64
; CHECK-NEXT:    %f15 = llvm.fcmp "_true" %x, %y : f64
; CHECK-NEXT:    %fv = llvm.fcmp "olt" %vx, %vx {fastmathFlags = #llvm.fastmath<fast>} : vector<2xf32>

; LLVM-LABEL: define i1 @fcmps(
; LLVM-NEXT:    %f0 = fcmp false double %x, %y
; LLVM-NEXT:    %f1 = fcmp oeq double %x, %y
; LLVM-NEXT:    %f2 = fcmp nnan ogt double %x, %y
; LLVM:         %f15 = fcmp true double %x, %y
; LLVM-NEXT:    %fv = fcmp fast olt <2 x float> %vx, %vx

define <2 x double> @selects(i1 %c, double %s, <2 x i1> %vc, <2 x double> %v, <2 x double> %w) {
  %sel = select nnan i1 %c, double %s, double 0.0
  %vsel = select <2 x i1> %vc, <2 x double> %v, <2 x double> %w
  %ssel = select i1 %c, <2 x double> %v, <2 x double> %w
  ret <2 x double> %vsel
}
; CHECK-LABEL: llvm.func @selects(
; CHECK:         %sel = llvm.select %c, %s, %{{.*}} {fastmathFlags = #llvm.fastmath<nnan>} : i1, f64
; CHECK-NEXT:    %vsel = llvm.select %vc, %v, %w : vector<2xi1>, vector<2xf64>
; CHECK-NEXT:    %ssel = llvm.select %c, %v, %w : i1, vector<2xf64>

; LLVM-LABEL: define <2 x double> @selects(
; LLVM-NEXT:    %sel = select nnan i1 %c, double %s, double 0.000000e+00
; LLVM-NEXT:    %vsel = select <2 x i1> %vc, <2 x double> %v, <2 x double> %w
; LLVM-NEXT:    %ssel = select i1 %c, <2 x double> %v, <2 x double> %w
