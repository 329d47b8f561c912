; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; alloca, load and store keep alignment, volatile, atomic orderings and sync scopes;
; getelementptr keeps inbounds/nusw/nuw and struct, array and vector indices.

%struct.S = type { i32, [4 x double], <2 x float> }

define void @stack(i32 %n) {
  %a = alloca i32, align 4
  %b = alloca double, i32 %n, align 16
  %c = alloca %struct.S, align 8
  %d = alloca i8, align 1, addrspace(5)
  ret void
}
; CHECK-LABEL: llvm.func @stack(%n: i32) {
; CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
; CHECK-NEXT:    %a = llvm.alloca %[[ONE]] x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
; CHECK-NEXT:    %b = llvm.alloca %n x f64 {alignment = 16 : i64} : (i32) -> !llvm.ptr
; CHECK-NEXT:    %c = llvm.alloca %[[ONE]] x !llvm.struct<"struct.S", (i32, !llvm.array<4 x f64>, vector<2xf32>)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
; CHECK-NEXT:    %d = llvm.alloca %[[ONE]] x i8 {alignment = 1 : i64} : (i32) -> !llvm.ptr<5>

; LLVM-LABEL: define void @stack(i32 %n) {
; LLVM-NEXT:    %a = alloca i32, i32 1, align 4
; LLVM-NEXT:    %b = alloca double, i32 %n, align 16
; LLVM-NEXT:    %c = alloca %struct.S, i32 1, align 8
; LLVM-NEXT:    %d = alloca i8, i32 1, align 1, addrspace(5)

define void @loads_stores(ptr %p, i32 %v) {
  %l0 = load i32, ptr %p, align 4
  %l1 = load volatile i32, ptr %p, align 4
  %l2 = load atomic i32, ptr %p acquire, align 4
  %l3 = load atomic volatile i32, ptr %p syncscope("singlethread") seq_cst, align 4
  store i32 %v, ptr %p, align 4
  store volatile i32 %v, ptr %p, align 2
  store atomic i32 %v, ptr %p release, align 4
  store atomic i32 %v, ptr %p syncscope("agent") monotonic, align 4
  %l4 = load <4 x float>, ptr %p, align 16
  ret void
}
; CHECK-LABEL: llvm.func @loads_stores(%p: !llvm.ptr, %v: i32) {
; CHECK-NEXT:    %l0 = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
; CHECK-NEXT:    %l1 = llvm.load %p {volatile_, alignment = 4 : i64} : !llvm.ptr -> i32
; CHECK-NEXT:    %l2 = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
; CHECK-NEXT:    %l3 = llvm.load %p atomic seq_cst {volatile_, syncscope = "singlethread", alignment = 4 : i64} : !llvm.ptr -> i32
; CHECK-NEXT:    llvm.store %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
; CHECK-NEXT:    llvm.store volatile %v, %p {alignment = 2 : i64} : i32, !llvm.ptr
; CHECK-NEXT:    llvm.store %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
; CHECK-NEXT:    llvm.store %v, %p atomic monotonic {syncscope = "agent", alignment = 4 : i64} : i32, !llvm.ptr
; CHECK-NEXT:    %l4 = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>

; LLVM-LABEL: define void @loads_stores(ptr %p, i32 %v) {
; LLVM-NEXT:    %l0 = load i32, ptr %p, align 4
; LLVM-NEXT:    %l1 = load volatile i32, ptr %p, align 4
; LLVM-NEXT:    %l2 = load atomic i32, ptr %p acquire, align 4
; LLVM-NEXT:    %l3 = load atomic volatile i32, ptr %p syncscope("singlethread") seq_cst, align 4
; LLVM-NEXT:    store i32 %v, ptr %p, align 4
; LLVM-NEXT:    store volatile i32 %v, ptr %p, align 2
; LLVM-NEXT:    store atomic i32 %v, ptr %p release, align 4
; LLVM-NEXT:    store atomic i32 %v, ptr %p syncscope("agent") monotonic, align 4
; LLVM-NEXT:    %l4 = load <4 x float>, ptr %p, align 16

define void @geps(ptr %q, i64 %i, i32 %j, <2 x ptr> %vq, <2 x i64> %vi) {
  %g0 = getelementptr i8, ptr %q, i64 %i
  %g1 = getelementptr inbounds %struct.S, ptr %q, i64 %i, i32 1, i32 %j
  %g2 = getelementptr inbounds nuw %struct.S, ptr %q, i64 0, i32 2, i64 1
  %g3 = getelementptr nusw double, ptr %q, i64 -3
  %g4 = getelementptr double, <2 x ptr> %vq, <2 x i64> %vi
  %g5 = getelementptr double, ptr %q, <2 x i64> %vi
  ret void
}
; CHECK-LABEL: llvm.func @geps(%q: !llvm.ptr, %i: i64, %j: i32, %vq: vector<2x!llvm.ptr>, %vi: vector<2xi64>) {
; CHECK-NEXT:    %g0 = llvm.getelementptr %q[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
; CHECK-NEXT:    %g1 = llvm.getelementptr inbounds %q[%i, 1, %j] : (!llvm.ptr, i64, i32) -> !llvm.ptr, !llvm.struct<"struct.S", (i32, !llvm.array<4 x f64>, vector<2xf32>)>
; CHECK-NEXT:    %g2 = llvm.getelementptr inbounds nuw %q[0, 2, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"struct.S", (i32, !llvm.array<4 x f64>, vector<2xf32>)>
; CHECK-NEXT:    %g3 = llvm.getelementptr nusw %q[-3] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NEXT:    %g4 = llvm.getelementptr %vq[%vi] : (vector<2x!llvm.ptr>, vector<2xi64>) -> vector<2x!llvm.ptr>, f64
; CHECK-NEXT:    %g5 = llvm.getelementptr %q[%vi] : (!llvm.ptr, vector<2xi64>) -> vector<2x!llvm.ptr>, f64

; LLVM-LABEL: define void @geps(
; LLVM-NEXT:    %g0 = getelementptr i8, ptr %q, i64 %i
; LLVM-NEXT:    %g1 = getelementptr inbounds %struct.S, ptr %q, i64 %i, i32 1, i32 %j
; LLVM-NEXT:    %g2 = getelementptr inbounds nuw %struct.S, ptr %q, i64 0, i32 2, i64 1
; LLVM-NEXT:    %g3 = getelementptr nusw double, ptr %q, i64 -3
; LLVM-NEXT:    %g4 = getelementptr double, <2 x ptr> %vq, <2 x i64> %vi
; LLVM-NEXT:    %g5 = getelementptr double, ptr %q, <2 x i64> %vi
