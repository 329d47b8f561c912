// RUN: xenzyme-opt %s -p lower-autodiff | filecheck %s

// autodiff.accumulate (plain) becomes load, fadd, store at the same address, with the given
// alignment on both accesses.  Vectors are added lane-wise in one fadd; aggregates field by
// field.

// CHECK-LABEL: llvm.func @scalars(
// CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f32) {
// CHECK-NEXT:    %[[OLD:.*]] = llvm.load %[[P]] : !llvm.ptr -> f64
// CHECK-NEXT:    %[[NEW:.*]] = llvm.fadd %[[OLD]], %[[X]] : f64
// CHECK-NEXT:    llvm.store %[[NEW]], %[[P]] : f64, !llvm.ptr
// CHECK-NEXT:    %[[OLD2:.*]] = llvm.load %[[P]] {alignment = 2 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:    %[[NEW2:.*]] = llvm.fadd %[[OLD2]], %[[Y]] : f32
// CHECK-NEXT:    llvm.store %[[NEW2]], %[[P]] {alignment = 2 : i64} : f32, !llvm.ptr
// CHECK-NEXT:    llvm.return
llvm.func @scalars(%p: !llvm.ptr, %x: f64, %y: f32) {
  autodiff.accumulate %p, %x : !llvm.ptr, f64
  autodiff.accumulate %p, %y {alignment = 2 : i64} : !llvm.ptr, f32
  llvm.return
}

// CHECK-LABEL: llvm.func @vectors(
// CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[V:[^:]+]]: vector<4xf32>) {
// CHECK-NEXT:    %[[OLD:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT:    %[[NEW:.*]] = llvm.fadd %[[OLD]], %[[V]] : vector<4xf32>
// CHECK-NEXT:    llvm.store %[[NEW]], %[[P]] {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NEXT:    llvm.return
llvm.func @vectors(%p: !llvm.ptr, %v: vector<4xf32>) {
  autodiff.accumulate %p, %v {alignment = 4 : i64} : !llvm.ptr, vector<4xf32>
  llvm.return
}

// CHECK-LABEL: llvm.func @aggregates(
// CHECK-SAME:      %[[P:[^:]+]]: !llvm.ptr, %[[S:[^:]+]]: !llvm.struct<(f64, !llvm.array<2 x f32>)>) {
// CHECK-NEXT:    %[[OLD:.*]] = llvm.load %[[P]] : !llvm.ptr -> !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    %[[A0:.*]] = llvm.extractvalue %[[OLD]][0] : !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    %[[B0:.*]] = llvm.extractvalue %[[S]][0] : !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    %[[C0:.*]] = llvm.fadd %[[A0]], %[[B0]] : f64
// CHECK-NEXT:    %[[R0:.*]] = llvm.insertvalue %[[C0]], %[[OLD]][0] : !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    %[[A1:.*]] = llvm.extractvalue %[[OLD]][1] : !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    %[[B1:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    %[[A10:.*]] = llvm.extractvalue %[[A1]][0] : !llvm.array<2 x f32>
// CHECK-NEXT:    %[[B10:.*]] = llvm.extractvalue %[[B1]][0] : !llvm.array<2 x f32>
// CHECK-NEXT:    %[[C10:.*]] = llvm.fadd %[[A10]], %[[B10]] : f32
// CHECK-NEXT:    %[[R10:.*]] = llvm.insertvalue %[[C10]], %[[A1]][0] : !llvm.array<2 x f32>
// CHECK-NEXT:    %[[A11:.*]] = llvm.extractvalue %[[A1]][1] : !llvm.array<2 x f32>
// CHECK-NEXT:    %[[B11:.*]] = llvm.extractvalue %[[B1]][1] : !llvm.array<2 x f32>
// CHECK-NEXT:    %[[C11:.*]] = llvm.fadd %[[A11]], %[[B11]] : f32
// CHECK-NEXT:    %[[R11:.*]] = llvm.insertvalue %[[C11]], %[[R10]][1] : !llvm.array<2 x f32>
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[R11]], %[[R0]][1] : !llvm.struct<(f64, !llvm.array<2 x f32>)>
// CHECK-NEXT:    llvm.store %[[R1]], %[[P]] : !llvm.struct<(f64, !llvm.array<2 x f32>)>, !llvm.ptr
// CHECK-NEXT:    llvm.return
llvm.func @aggregates(%p: !llvm.ptr, %s: !llvm.struct<(f64, array<2 x f32>)>) {
  autodiff.accumulate %p, %s : !llvm.ptr, !llvm.struct<(f64, array<2 x f32>)>
  llvm.return
}
