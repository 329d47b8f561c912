// RUN: xenzyme-opt %s -p forward-diff | filecheck %s

// Return activities: `dup` returns the primal value and its tangents in one struct; `const`
// gives the request no result (the tangents go to the shadows only), while the generated function
// still returns the primal value, as calls between tangent functions need it.

builtin.module {
  llvm.func @f(%x: f64, %p: !llvm.ptr) -> f64 {
    %s = llvm.fmul %x, %x : f64
    llvm.store %s, %p : f64, !llvm.ptr
    %r = llvm.fadd %s, %x : f64
    llvm.return %r : f64
  }

  // CHECK-LABEL: llvm.func internal @fwddiffef(
  // CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX:[^:]+]]: f64, %[[P:[^:]+]]: !llvm.ptr, %[[DP:[^:]+]]: !llvm.ptr) -> f64
  // CHECK:         llvm.store %{{.*}}, %[[DP]] : f64, !llvm.ptr
  // CHECK-NEXT:    %[[R:.*]] = llvm.fadd %{{.*}}, %[[X]] : f64
  // CHECK-NEXT:    %{{.*}} = llvm.fadd %{{.*}}, %[[DX]] : f64
  // CHECK-NEXT:    llvm.return %[[R]] : f64

  // CHECK-LABEL: llvm.func internal @fwddiffe2f(
  // CHECK-SAME:      %[[X:[^:]+]]: f64, %[[DX0:[^:]+]]: f64, %[[DX1:[^:]+]]: f64, %[[P:[^:]+]]: !llvm.ptr, %[[DP0:[^:]+]]: !llvm.ptr, %[[DP1:[^:]+]]: !llvm.ptr) -> !llvm.struct<(f64, f64, f64)>
  // CHECK:         %[[S:.*]] = llvm.fmul %[[X]], %[[X]] : f64
  // CHECK:         %[[DS0:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f64
  // CHECK:         %[[DS1:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f64
  // CHECK-NEXT:    llvm.store %[[S]], %[[P]] : f64, !llvm.ptr
  // CHECK-NEXT:    llvm.store %[[DS0]], %[[DP0]] : f64, !llvm.ptr
  // CHECK-NEXT:    llvm.store %[[DS1]], %[[DP1]] : f64, !llvm.ptr
  // CHECK-NEXT:    %[[R:.*]] = llvm.fadd %[[S]], %[[X]] : f64
  // CHECK-NEXT:    %[[DR0:.*]] = llvm.fadd %[[DS0]], %[[DX0]] : f64
  // CHECK-NEXT:    %[[DR1:.*]] = llvm.fadd %[[DS1]], %[[DX1]] : f64
  // CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64, f64)>
  // CHECK-NEXT:    %[[A:.*]] = llvm.insertvalue %[[R]], %[[U]][0] : !llvm.struct<(f64, f64, f64)>
  // CHECK-NEXT:    %[[B:.*]] = llvm.insertvalue %[[DR0]], %[[A]][1] : !llvm.struct<(f64, f64, f64)>
  // CHECK-NEXT:    %[[C:.*]] = llvm.insertvalue %[[DR1]], %[[B]][2] : !llvm.struct<(f64, f64, f64)>
  // CHECK-NEXT:    llvm.return %[[C]] : !llvm.struct<(f64, f64, f64)>

  llvm.func @g(%x: f64, %dx: f64, %dx2: f64, %p: !llvm.ptr, %dp: !llvm.ptr, %dp2: !llvm.ptr) -> f64 {
    %a = autodiff.fwddiff @f(%x, %dx, %dx2, %p, %dp, %dp2) activity [dup, dup] ret dup width 2 : (f64, f64, f64, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(f64, f64, f64)>
    autodiff.fwddiff @f(%x, %dx, %p, %dp) activity [dup, dup] ret const : (f64, f64, !llvm.ptr, !llvm.ptr) -> ()
    %r = llvm.extractvalue %a[1] : !llvm.struct<(f64, f64, f64)>
    llvm.return %r : f64
  }

  // CHECK-LABEL: llvm.func @g(
  // CHECK:         %[[A:.*]] = llvm.call @fwddiffe2f(%{{.*}}) : (f64, f64, f64, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(f64, f64, f64)>
  // CHECK-NEXT:    %{{.*}} = llvm.call @fwddiffef(%{{.*}}) : (f64, f64, !llvm.ptr, !llvm.ptr) -> f64
  // CHECK-NEXT:    %[[T:.*]] = llvm.extractvalue %[[A]][1]
  // CHECK-NEXT:    llvm.return %[[T]] : f64
}
