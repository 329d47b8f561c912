// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// scf.for at the structured level: the reverse of a loop nest is a loop nest running the
// iterations backwards, carrying the adjoints of the loop-carried values and of the outer
// values the body uses; what an iteration needs is cached in memrefs shaped by the trip
// counts (here 4 and 4x3), stored where it is defined, loaded in the reversed iteration.

// CHECK-LABEL: func.func @df
// CHECK: func.call @diffe_f(%A, %dA, %x, %{{.*}}) : (memref<4x3xf64>, memref<4x3xf64>, f64, f64) -> f64

// CHECK-LABEL: func.func private @diffe_f(%A: memref<4x3xf64>, %dA: memref<4x3xf64>, %x: f64, %seed: f64) -> f64
// CHECK:         %[[OUTER:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT:    %[[INNER:.*]] = memref.alloc() : memref<4x3xf64>
// CHECK-NEXT:    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %one) -> (f64) {
// CHECK-NEXT:      %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %p) -> (f64) {
// CHECK-NEXT:        memref.store %acc, %[[INNER]][%i, %j] : memref<4x3xf64>
// CHECK:           memref.store %s, %[[OUTER]][%i] : memref<4xf64>
// The reversed outer loop: iteration 3 first, the return's seed and x's adjoint carried.
// CHECK:         %[[N:.*]] = arith.constant 4 : index
// CHECK:         %{{.*}}, %[[DX:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[DR:.*]] = %seed, %[[DXA:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK-NEXT:      %[[S:.*]] = memref.load %[[OUTER]][%[[I]]] : memref<4xf64>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK:             %[[ACC:.*]] = memref.load %[[INNER]][%[[I]], %[[J:.*]]] : memref<4x3xf64>
// The load of A is recomputed (nothing writes A); sin's derivative, dA[i, j] += ...
// CHECK-NEXT:        %a_1 = memref.load %A[%[[I]], %[[J]]] : memref<4x3xf64>
// CHECK-NEXT:        %m_1 = arith.mulf %[[ACC]], %a_1 : f64
// CHECK-NEXT:        %{{.*}} = math.cos %m_1 : f64
// CHECK:             %[[OLD:.*]] = memref.load %dA[%[[I]], %[[J]]] : memref<4x3xf64>
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK-NEXT:        memref.store %[[NEW]], %dA[%[[I]], %[[J]]] : memref<4x3xf64>
// CHECK-NEXT:        scf.yield %{{.*}} : f64
// CHECK:         memref.dealloc %[[OUTER]] : memref<4xf64>
// CHECK-NEXT:    memref.dealloc %[[INNER]] : memref<4x3xf64>
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
