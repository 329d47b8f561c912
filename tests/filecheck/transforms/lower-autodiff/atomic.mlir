// RUN: xenzyme-opt %s -p lower-autodiff | filecheck %s
// RUN: xenzyme-opt %s -p lower-autodiff -t llvm | filecheck %s --check-prefix=LLVM

// Atomic accumulations (adjoints that several threads may update) become `atomicrmw fadd`,
// monotonic as in Enzyme: one per lane of a vector and per member of a struct, each at its
// address, with the alignment that is known there.  A `reduce` accumulation that no parallel
// lowering has turned into partial sums is atomic too.  (They used to stop with "internal
// error: 'atomic' accumulation is lowered by the parallel passes".)

llvm.func @scalar(%p: !llvm.ptr, %x: f64) {
  autodiff.accumulate %p, %x atomic : !llvm.ptr, f64
  llvm.return
}

// CHECK-LABEL: llvm.func @scalar(
// CHECK-NEXT:    %{{.*}} = llvm.atomicrmw fadd %p, %x monotonic : !llvm.ptr, f64
// CHECK-NEXT:    llvm.return

llvm.func @vector(%q: !llvm.ptr, %v: vector<2xf32>) {
  autodiff.accumulate %q, %v atomic {alignment = 4 : i64} : !llvm.ptr, vector<2xf32>
  llvm.return
}

// CHECK-LABEL: llvm.func @vector(
// CHECK:         %[[L0:.*]] = llvm.extractelement %v[%{{.*}} : i32] : vector<2xf32>
// CHECK-NEXT:    %{{.*}} = llvm.atomicrmw fadd %q, %[[L0]] monotonic {alignment = 4 : i64} : !llvm.ptr, f32
// CHECK:         %[[L1:.*]] = llvm.extractelement %v[%{{.*}} : i32] : vector<2xf32>
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %q[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:    %{{.*}} = llvm.atomicrmw fadd %[[P1]], %[[L1]] monotonic {alignment = 4 : i64} : !llvm.ptr, f32
// CHECK-NEXT:    llvm.return

llvm.func @aggregate(%r: !llvm.ptr, %s: !llvm.struct<(f32, f64)>) {
  autodiff.accumulate %r, %s reduce {alignment = 16 : i64} : !llvm.ptr, !llvm.struct<(f32, f64)>
  llvm.return
}

// LLVM-LABEL: define void @aggregate(ptr %r, { float, double } %s)
// LLVM-NEXT:    %[[A:.*]] = extractvalue { float, double } %s, 0
// LLVM-NEXT:    %{{.*}} = atomicrmw fadd ptr %r, float %[[A]] monotonic, align 16
// LLVM-NEXT:    %[[B:.*]] = extractvalue { float, double } %s, 1
// LLVM-NEXT:    %[[PB:.*]] = getelementptr { float, double }, ptr %r, i64 0, i32 1
// LLVM-NEXT:    %{{.*}} = atomicrmw fadd ptr %[[PB]], double %[[B]] monotonic, align 8
// LLVM-NEXT:    ret void
