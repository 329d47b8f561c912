// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// scf.for at the structured level: the reverse of a loop nest is a loop nest running the
// iterations backwards, carrying the adjoints of the loop-carried values and of the outer
// values the body uses; what an iteration needs is cached in memrefs shaped by the trip
// counts (here 4 and 4x3), stored where it is defined, loaded in the reversed iteration.
// The constants the derivative uses are made once, at its start.

// CHECK-LABEL: func.func @df
// CHECK: func.call @diffe_f(%A, %dA, %x, %{{.*}}) : (memref<4x3xf64>, memref<4x3xf64>, f64, f64) -> f64

// CHECK-LABEL: func.func private @diffe_f(%A: memref<4x3xf64>, %dA: memref<4x3xf64>, %x: f64, %seed: f64) -> f64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[THREE:.*]] = arith.constant 3 : index
// CHECK:         %s_cache = memref.alloc() : memref<4xf64>
// CHECK-NEXT:    %acc_cache = memref.alloc() : memref<4x3xf64>
// CHECK-NEXT:    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %one) -> (f64) {
// CHECK-NEXT:      %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %p) -> (f64) {
// CHECK-NEXT:        memref.store %acc, %acc_cache[%i, %j] : memref<4x3xf64>
// CHECK:           memref.store %s, %s_cache[%i] : memref<4xf64>
// The reversed outer loop: iteration 3 first, the return's seed and x's adjoint carried.
// CHECK:         %[[LAST:.*]] = arith.subi %[[FOUR]], %[[ONE]] : index
// CHECK-NEXT:    %{{.*}}, %[[DX:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[FOUR]] step %[[ONE]] iter_args(%[[DR:.*]] = %seed, %{{.*}} = %[[ZERO]]) -> (f64, f64) {
// CHECK-NEXT:      %i_rev = arith.subi %[[LAST]], %[[K]] : index
// CHECK-NEXT:      %s_1 = memref.load %s_cache[%i_rev] : memref<4xf64>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[THREE]] step %[[ONE]] iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK-NEXT:        %j_rev = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %acc_1 = memref.load %acc_cache[%i_rev, %j_rev] : memref<4x3xf64>
// The load of A is recomputed (nothing writes A); sin's derivative; dA[i, j] += ...
// CHECK-NEXT:        %a_1 = memref.load %A[%i_rev, %j_rev] : memref<4x3xf64>
// CHECK-NEXT:        %m_1 = arith.mulf %acc_1, %a_1 : f64
// CHECK-NEXT:        %{{.*}} = math.cos %m_1 : f64
// CHECK:             %[[OLD:.*]] = memref.load %dA[%i_rev, %j_rev] : memref<4x3xf64>
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK-NEXT:        memref.store %[[NEW]], %dA[%i_rev, %j_rev] : memref<4x3xf64>
// CHECK-NEXT:        scf.yield %{{.*}} : f64
// CHECK:         memref.dealloc %s_cache : memref<4xf64>
// CHECK-NEXT:    memref.dealloc %acc_cache : memref<4x3xf64>
// CHECK-NEXT:    func.return %[[DX]] : f64
func.func @f(%A: memref<4x3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %one) -> (f64) {
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %p) -> (f64) {
      %a = memref.load %A[%i, %j] : memref<4x3xf64>
      %m = arith.mulf %acc, %a : f64
      %t = math.sin %m : f64
      scf.yield %t : f64
    }
    %q = arith.mulf %s, %x : f64
    scf.yield %q : f64
  }
  func.return %r : f64
}

func.func @df(%A: memref<4x3xf64>, %dA: memref<4x3xf64>, %x: f64) -> f64 {
  %d = autodiff.autodiff @f(%A, %dA, %x) activity [dup, active] ret active : (memref<4x3xf64>, memref<4x3xf64>, f64) -> f64
  func.return %d : f64
}
