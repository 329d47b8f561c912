// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// Views and copies at the structured level.  A view's shadow is the same view of the shadow:
// made beside the view in the forward sweep, and made again in the reversed loop for a view
// made inside a loop (the forward sweep's is out of reach there).  A copy's reverse adds the
// destination's adjoint into the source's and zeroes it, element by element.  The row and
// the matrix alias, so %v (loaded from the matrix, then overwritten through the row) is
// cached, not reloaded.

// CHECK-LABEL: func.func private @diffe_f(%A: memref<4x3xf64>, %dA: memref<4x3xf64>, %t: memref<3xf64>, %dt: memref<3xf64>, %w: f64, %seed: f64)
// CHECK:         %v_cache = memref.alloc() : memref<4x3xf64>
// CHECK:         %r = scf.for %i =
// CHECK-NEXT:      %row = memref.subview %A[%i, 0] [1, 3] [1, 1]
// CHECK-NEXT:      %drow = memref.subview %dA[%i, 0] [1, 3] [1, 1]
// CHECK:             %v = memref.load %A[%i, %j] : memref<4x3xf64>
// CHECK-NEXT:        memref.store %v, %v_cache[%i, %j] : memref<4x3xf64>
// CHECK:         %last = memref.subview %A[3, 0] [1, 3] [1, 1]
// CHECK-NEXT:    %dlast = memref.subview %dA[3, 0] [1, 3] [1, 1]
// CHECK-NEXT:    "memref.copy"(%last, %t)
// The copy's reverse: dt's elements moved into the row's shadow.
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[D:.*]] = memref.load %dt[%[[K]]] : memref<3xf64>
// CHECK-NEXT:      memref.store %{{.*}}, %dt[%[[K]]] : memref<3xf64>
// CHECK-NEXT:      %[[OLD:.*]] = memref.load %dlast[%[[K]]]
// CHECK-NEXT:      %[[NEW:.*]] = arith.addf %[[OLD]], %[[D]] : f64
// CHECK-NEXT:      memref.store %[[NEW]], %dlast[%[[K]]]
// The reversed loop makes the row's shadow again from its own %i.
// CHECK:             %v_1 = memref.load %v_cache[%i_rev, %j_rev] : memref<4x3xf64>
// CHECK:             %drow_1 = memref.subview %dA[%i_rev, 0] [1, 3] [1, 1]
// CHECK-NEXT:        %{{.*}} = memref.load %drow_1[%j_rev]
// CHECK-NEXT:        memref.store %{{.*}}, %drow_1[%j_rev]
func.func @f(%A: memref<4x3xf64>, %t: memref<3xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
    %row = memref.subview %A[%i, 0] [1, 3] [1, 1] : memref<4x3xf64> to memref<3xf64, strided<[1], offset: ?>>
    %ri = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc2 = %acc) -> (f64) {
      %v = memref.load %A[%i, %j] : memref<4x3xf64>
      %vw = arith.mulf %v, %w : f64
      %s = math.sin %vw : f64
      memref.store %s, %row[%j] : memref<3xf64, strided<[1], offset: ?>>
      %p = arith.mulf %v, %s : f64
      %a = arith.addf %acc2, %p : f64
      scf.yield %a : f64
    }
    scf.yield %ri : f64
  }
  %last = memref.subview %A[3, 0] [1, 3] [1, 1] : memref<4x3xf64> to memref<3xf64, strided<[1], offset: 9>>
  "memref.copy"(%last, %t) : (memref<3xf64, strided<[1], offset: 9>>, memref<3xf64>) -> ()
  %x = memref.load %t[%c0] : memref<3xf64>
  %y = arith.mulf %x, %r : f64
  func.return %y : f64
}

func.func @df(%A: memref<4x3xf64>, %dA: memref<4x3xf64>, %t: memref<3xf64>, %dt: memref<3xf64>, %w: f64) -> f64 {
  %d = autodiff.autodiff @f(%A, %dA, %t, %dt, %w) activity [dup, dup, active] ret active : (memref<4x3xf64>, memref<4x3xf64>, memref<3xf64>, memref<3xf64>, f64) -> f64
  func.return %d : f64
}
