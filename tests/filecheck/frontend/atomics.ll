; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; atomicrmw, cmpxchg and fence with their orderings, sync scopes, volatility and alignment.

define i32 @atomics(ptr %p, i32 %v, double %d) {
  %add = atomicrmw add ptr %p, i32 %v seq_cst, align 4
  %xchg = atomicrmw volatile xchg ptr %p, i32 0 syncscope("singlethread") acquire, align 4
  %fadd = atomicrmw fadd ptr %p, double %d monotonic, align 8
  %umin = atomicrmw umin ptr %p, i32 %v release, align 4
  %pair = cmpxchg ptr %p, i32 %v, i32 1 acq_rel monotonic, align 4
  %weak = cmpxchg weak volatile ptr %p, i32 %v, i32 2 syncscope("singlethread") seq_cst acquire, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  fence release
  fence syncscope("singlethread") seq_cst
  ret i32 %old
}
; CHECK-LABEL: llvm.func @atomics(%p: !llvm.ptr, %v: i32, %d: f64) -> i32 {
; CHECK:         %add = llvm.atomicrmw add %p, %v seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
; CHECK-NEXT:    %xchg = llvm.atomicrmw volatile xchg %p, %{{.*}} syncscope("singlethread") acquire {alignment = 4 : i64} : !llvm.ptr, i32
; CHECK-NEXT:    %fadd = llvm.atomicrmw fadd %p, %d monotonic {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    %umin = llvm.atomicrmw umin %p, %v release {alignment = 4 : i64} : !llvm.ptr, i32
; CHECK-NEXT:    %pair = llvm.cmpxchg %p, %v, %{{.*}} acq_rel monotonic {alignment = 4 : i64} : !llvm.ptr, i32
; CHECK-NEXT:    %weak = llvm.cmpxchg weak volatile %p, %v, %{{.*}} syncscope("singlethread") seq_cst acquire {alignment = 4 : i64} : !llvm.ptr, i32
; CHECK-NEXT:    %old = llvm.extractvalue %pair[0] : !llvm.struct<(i32, i1)>
; CHECK-NEXT:    llvm.fence release
; CHECK-NEXT:    llvm.fence syncscope("singlethread") seq_cst

; LLVM-LABEL: define i32 @atomics(
; LLVM-NEXT:    %add = atomicrmw add ptr %p, i32 %v seq_cst, align 4
; LLVM-NEXT:    %xchg = atomicrmw volatile xchg ptr %p, i32 0 syncscope("singlethread") acquire, align 4
; LLVM-NEXT:    %fadd = atomicrmw fadd ptr %p, double %d monotonic, align 8
; LLVM-NEXT:    %umin = atomicrmw umin ptr %p, i32 %v release, align 4
; LLVM-NEXT:    %pair = cmpxchg ptr %p, i32 %v, i32 1 acq_rel monotonic, align 4
; LLVM-NEXT:    %weak = cmpxchg weak volatile ptr %p, i32 %v, i32 2 syncscope("singlethread") seq_cst acquire, align 4
; LLVM-NEXT:    %old = extractvalue { i32, i1 } %pair, 0
; LLVM-NEXT:    fence release
; LLVM-NEXT:    fence syncscope("singlethread") seq_cst
