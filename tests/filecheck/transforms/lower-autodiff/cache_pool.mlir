// RUN: xenzyme-opt %s -p lower-autodiff | filecheck %s
// RUN: xenzyme-opt %s -p 'lower-autodiff{reuse-caches=false}' | filecheck %s --check-prefix=FRESH

// A stack cache keeps its buffer between calls: a pool slot per cache site (an internal global),
// taken with an atomic exchange on entry (capacity: what malloc made usable) and given back at
// each return, freeing what the slot held then.

// CHECK-LABEL: llvm.func @loop(
// CHECK:         %[[SLOT:.*]] = llvm.mlir.addressof @xenzyme.pool.loop.0 : !llvm.ptr
// CHECK:         %[[BUF:.*]] = llvm.atomicrmw xchg %[[SLOT]], %{{.*}} acq_rel {{.*}} : !llvm.ptr, !llvm.ptr
// CHECK:         %[[USABLE:.*]] = llvm.call @malloc_usable_size(%[[BUF]]) : (!llvm.ptr) -> i64
// CHECK:         llvm.udiv %[[USABLE]], %{{.*}} : i64
// CHECK:       ^done:
// CHECK:         %[[MINE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[SLOT2:.*]] = llvm.mlir.addressof @xenzyme.pool.loop.0 : !llvm.ptr
// CHECK:         %[[OLD:.*]] = llvm.atomicrmw xchg %[[SLOT2]], %[[MINE]] acq_rel {{.*}} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.call @free(%[[OLD]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return

// Without reuse: no pool, the buffer itself is freed.
// FRESH-NOT:   xenzyme.pool
// FRESH-LABEL: llvm.func @loop(
// FRESH-NOT:     atomicrmw
// FRESH:       ^done:
// FRESH:         %[[MINE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// FRESH-NEXT:    llvm.call @free(%[[MINE]]) : (!llvm.ptr) -> ()
// FRESH-NEXT:    llvm.return

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

// A function that forward mode will differentiate (here through a call from the function a
// forward-mode request names) frees its buffers: forward mode would need shadows of pooled ones.
// CHECK-LABEL: llvm.func @tangent_target(
// CHECK-NOT:     atomicrmw
// CHECK:         llvm.call @free(
llvm.func @tangent_target(%n: i64, %x: f64) -> f64 {
  %c = autodiff.cache.init : !autodiff.cache<f64>
  %zero = llvm.mlir.constant(0) : i64
  %one = llvm.mlir.constant(1) : i64
  llvm.br ^fwd(%zero : i64)
^fwd(%i: i64):
  autodiff.cache.push %c, %x : !autodiff.cache<f64>
  %i2 = llvm.add %i, %one : i64
  %more = llvm.icmp "slt" %i2, %n : i64
  llvm.cond_br %more, ^fwd(%i2 : i64), ^rev
^rev:
  %top = autodiff.cache.peek %c : !autodiff.cache<f64>
  autodiff.cache.pop %c : !autodiff.cache<f64>
  llvm.return %top : f64
}

// The pool slots, null at first (only @loop has one).
// CHECK:       llvm.mlir.global internal @xenzyme.pool.loop.0() {{.*}} : !llvm.ptr {
// CHECK-NEXT:    %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.return %[[NULL]] : !llvm.ptr
// CHECK-NOT:   xenzyme.pool

llvm.func @outer(%n: i64, %x: f64) -> f64 {
  %y = llvm.call @tangent_target(%n, %x) : (i64, f64) -> f64
  llvm.return %y : f64
}

llvm.func @request(%n: i64, %x: f64, %dx: f64) -> f64 {
  %t = autodiff.fwddiff @outer(%n, %x, %dx) activity [const, dup] ret dupnoneed : (i64, f64, f64) -> f64
  llvm.return %t : f64
}
