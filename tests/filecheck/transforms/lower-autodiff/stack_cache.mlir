// RUN: xenzyme-opt %s -p lower-autodiff | filecheck %s

// A cache pushed inside a loop becomes a stack in heap memory, grown as needed and freed at
// every return.  Only the essentials are checked: how the buffer is managed is the lowering's
// business.

// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME:      %[[N:[^:]+]]: i64, %[[X:[^:]+]]: f64) -> f64 {
// CHECK-NOT:     autodiff.

// Forward loop: each value is stored into the buffer.
// CHECK:       ^fwd(%{{[^:]+}}: i64, %[[V:[^:]+]]: f64):
// CHECK:         llvm.store %[[V]], %{{.*}} : f64, !llvm.ptr
// CHECK:         %[[V2:.*]] = llvm.fmul %[[V]], %[[V]] : f64
// CHECK:         llvm.cond_br %{{.*}}, ^fwd(%{{.*}}, %[[V2]] : i64, f64), ^rev(

// Reverse loop: the top value is loaded.
// CHECK:       ^rev(%{{[^:]+}}: i64, %[[ACC:[^:]+]]: f64):
// CHECK:         %[[TOP:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK:         %{{.*}} = llvm.fadd %[[ACC]], %[[TOP]] : f64

// The buffer is freed before returning.
// CHECK:       ^done:
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-NOT:     autodiff.

llvm.func @loop(%n: i64, %x: f64) -> f64 {
  %c = autodiff.cache.init : !autodiff.cache<f64>
  %zero = llvm.mlir.constant(0) : i64
  %one = llvm.mlir.constant(1) : i64
  %fzero = llvm.mlir.constant(0.0 : f64) : f64
  llvm.br ^fwd(%zero, %x : i64, f64)
^fwd(%i: i64, %v: f64):
  autodiff.cache.push %c, %v : !autodiff.cache<f64>
  %v2 = llvm.fmul %v, %v : f64
  %i2 = llvm.add %i, %one : i64
  %more = llvm.icmp "slt" %i2, %n : i64
  llvm.cond_br %more, ^fwd(%i2, %v2 : i64, f64), ^rev(%zero, %fzero : i64, f64)
^rev(%j: i64, %acc: f64):
  %top = autodiff.cache.peek %c : !autodiff.cache<f64>
  autodiff.cache.pop %c : !autodiff.cache<f64>
  %acc2 = llvm.fadd %acc, %top : f64
  %j2 = llvm.add %j, %one : i64
  %again = llvm.icmp "slt" %j2, %n : i64
  llvm.cond_br %again, ^rev(%j2, %acc2 : i64, f64), ^done
^done:
  llvm.return %acc2 : f64
}

// Two returns: the buffer is freed at each.
// CHECK-LABEL: llvm.func @two_returns(
// CHECK:       ^early:
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK:       ^late:
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
llvm.func @two_returns(%n: i64, %x: f64, %c0: i1) -> f64 {
  %c = autodiff.cache.init : !autodiff.cache<f64>
  %zero = llvm.mlir.constant(0) : i64
  %one = llvm.mlir.constant(1) : i64
  llvm.br ^fwd(%zero : i64)
^fwd(%i: i64):
  autodiff.cache.push %c, %x : !autodiff.cache<f64>
  %i2 = llvm.add %i, %one : i64
  %more = llvm.icmp "slt" %i2, %n : i64
  llvm.cond_br %more, ^fwd(%i2 : i64), ^split
^split:
  %top = autodiff.cache.peek %c : !autodiff.cache<f64>
  autodiff.cache.pop %c : !autodiff.cache<f64>
  llvm.cond_br %c0, ^early, ^late
^early:
  llvm.return %top : f64
^late:
  llvm.return %x : f64
}

// The buffer comes from the C allocator.
// CHECK-DAG:     llvm.func @{{(realloc|malloc)}}(
// CHECK-DAG:     llvm.func @free(!llvm.ptr)
