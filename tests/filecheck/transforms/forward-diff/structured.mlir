// RUN: xenzyme-opt %s -p forward-diff | filecheck %s

// Forward mode at the structured level: the tangent function is the body again, each op's
// tangents after it; an scf.for carries the tangents as further iteration arguments, an scf.if
// yields them as further results, a load's tangent loads the shadow.  The function returns its
// result and the result's tangent; the request (ret dupnoneed) takes the tangent.

// CHECK-LABEL: func.func @df
// CHECK-NEXT:    %{{.*}}, %t = func.call @fwddiffe_f(%a, %da, %x, %dx) : (memref<?xf64>, memref<?xf64>, f64, f64) -> (f64, f64)
// CHECK-NEXT:    func.return %t : f64
// CHECK-LABEL: func.func private @fwddiffe_f(%a: memref<?xf64>, %da: memref<?xf64>, %x: f64, %dx: f64) -> (f64, f64)
// CHECK:         %r, %[[DR:.*]] = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %[[DACC:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK-NEXT:      %v = memref.load %a[%i] : memref<?xf64>
// CHECK-NEXT:      %[[DV:.*]] = memref.load %da[%i] : memref<?xf64>
// CHECK-NEXT:      %p = arith.mulf %v, %x : f64
// CHECK-NEXT:      %[[T1:.*]] = arith.mulf %[[DV]], %x : f64
// CHECK-NEXT:      %[[T2:.*]] = arith.mulf %v, %dx : f64
// CHECK-NEXT:      %[[DP:.*]] = arith.addf %[[T1]], %[[T2]] : f64
// CHECK:           %y, %[[DY:.*]] = scf.if %pos -> (f64, f64) {
// CHECK-NEXT:        %s = math.sin %p : f64
// CHECK-NEXT:        %[[C:.*]] = math.cos %p : f64
// CHECK-NEXT:        %[[DS:.*]] = arith.mulf %[[DP]], %[[C]] : f64
// CHECK-NEXT:        scf.yield %s, %[[DS]] : f64, f64
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %p, %[[DP]] : f64, f64
// CHECK-NEXT:      }
// CHECK-NEXT:      %acc2 = arith.addf %acc, %y : f64
// CHECK-NEXT:      %[[DACC2:.*]] = arith.addf %[[DACC]], %[[DY]] : f64
// CHECK-NEXT:      scf.yield %acc2, %[[DACC2]] : f64, f64
// CHECK:         func.return %r, %[[DR]] : f64, f64
func.func @f(%a: memref<?xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %p = arith.mulf %v, %x : f64
    %pos = arith.cmpf ogt, %p, %zero : f64
    %y = scf.if %pos -> (f64) {
      %s = math.sin %p : f64
      scf.yield %s : f64
    } else {
      scf.yield %p : f64
    }
    %acc2 = arith.addf %acc, %y : f64
    scf.yield %acc2 : f64
  }
  func.return %r : f64
}

func.func @df(%a: memref<?xf64>, %da: memref<?xf64>, %x: f64, %dx: f64) -> f64 {
  %t = autodiff.fwddiff @f(%a, %da, %x, %dx) activity [dup, dup] ret dupnoneed : (memref<?xf64>, memref<?xf64>, f64, f64) -> f64
  func.return %t : f64
}
