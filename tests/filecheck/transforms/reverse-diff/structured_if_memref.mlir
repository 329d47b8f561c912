// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// scf.if and memref at the structured level.  The reverse of an scf.if is an scf.if on the same
// condition, yielding the adjoints of the outer values its branches use (here the adjoints of
// a[i]'s value and of w).  A store's reverse reads the shadow slot and zeroes it; a load's adds
// to it.  a[i] is overwritten, so the value loaded from it is cached (a memref<5xf64>: the trip
// count), not reloaded; the branch's exp is recomputed in the reversed branch.

// CHECK-LABEL: func.func private @diffe_f(%a: memref<5xf64>, %da: memref<5xf64>, %w: f64, %seed: f64) -> f64
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK:         %v_cache = memref.alloc() : memref<5xf64>
// CHECK:           %v = memref.load %a[%i] : memref<5xf64>
// CHECK-NEXT:      memref.store %v, %v_cache[%i] : memref<5xf64>
// CHECK:         scf.for %{{.*}} iter_args(%[[DACC:.*]] = %seed, %[[DW:.*]] = %[[Z]]) -> (f64, f64) {
// CHECK-NEXT:      %i_rev = arith.subi
// CHECK-NEXT:      %v_1 = memref.load %v_cache[%i_rev] : memref<5xf64>
// CHECK-NEXT:      %pos_1 = arith.cmpf ogt, %v_1, %zero : f64
// CHECK-NEXT:      %[[DY:.*]] = memref.load %da[%i_rev] : memref<5xf64>
// CHECK-NEXT:      memref.store %[[Z]], %da[%i_rev] : memref<5xf64>
// CHECK-NEXT:      %[[DY2:.*]] = arith.addf %[[DACC]], %[[DY]] : f64
// CHECK-NEXT:      %[[DV:.*]], %[[DW2:.*]] = scf.if %pos_1 -> (f64, f64) {
// CHECK:             scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %e_1 = math.exp %v_1 : f64
// CHECK:             scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OLD:.*]] = memref.load %da[%i_rev] : memref<5xf64>
// CHECK-NEXT:      %[[NEW:.*]] = arith.addf %[[OLD]], %[[DV]] : f64
// CHECK-NEXT:      memref.store %[[NEW]], %da[%i_rev] : memref<5xf64>
// CHECK-NEXT:      scf.yield %[[DACC]], %[[DW2]] : f64, f64
// CHECK:         memref.dealloc %v_cache : memref<5xf64>
func.func @f(%a: memref<5xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %a[%i] : memref<5xf64>
    %pos = arith.cmpf ogt, %v, %zero : f64
    %y = scf.if %pos -> (f64) {
      %l = arith.mulf %v, %w : f64
      scf.yield %l : f64
    } else {
      %e = math.exp %v : f64
      %m = arith.mulf %e, %w : f64
      scf.yield %m : f64
    }
    memref.store %y, %a[%i] : memref<5xf64>
    %acc2 = arith.addf %acc, %y : f64
    scf.yield %acc2 : f64
  }
  func.return %r : f64
}

func.func @df(%a: memref<5xf64>, %da: memref<5xf64>, %w: f64) -> f64 {
  %d = autodiff.autodiff @f(%a, %da, %w) activity [dup, active] ret active : (memref<5xf64>, memref<5xf64>, f64) -> f64
  func.return %d : f64
}
