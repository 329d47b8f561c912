// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// scf.while reversed at the structured level: a first run counts the trips (sizing the cache
// of the loop-carried value), the forward run counts them too and stores the value each trip,
// and the reverse is an scf.for over the trips, last first, carrying the adjoints.

// CHECK-LABEL: func.func private @diffe_damp(%x: f64, %k: f64, %seed: f64) -> (f64, f64)
// CHECK:         %{{.*}}, %trips_counted = scf.while (%{{.*}} = %x, %trip = %[[C0:.*]]) : (f64, index) -> (f64, index) {
// CHECK:           scf.condition(%{{.*}}) %{{.*}}, %trip : f64, index
// CHECK:           scf.yield %u, %{{.*}} : f64, index
// CHECK:         %v_cache = memref.alloc(%trips_counted) : memref<?xf64>
// CHECK:         %{{.*}}, %trips = scf.while
// CHECK:         ^bb0(%[[V:.*]]: f64, %[[K:.*]]: index):
// CHECK-NEXT:      memref.store %[[V]], %v_cache[%[[K]]] : memref<?xf64>
// CHECK:         %[[LAST:.*]] = arith.subi %trips, %{{.*}} : index
// CHECK-NEXT:    %[[DV:.*]], %[[DK:.*]] = scf.for %[[I:.*]] = %[[C0]] to %trips step %{{.*}} iter_args(%[[A:.*]] = %seed, %[[B:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK-NEXT:      %trip_rev = arith.subi %[[LAST]], %[[I]] : index
// CHECK:           %[[VR:.*]] = memref.load %v_cache[%trip_rev] : memref<?xf64>
// CHECK:           math.cos
// CHECK:           scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK:         memref.dealloc %v_cache : memref<?xf64>
// CHECK-NEXT:    func.return %[[DV]], %[[DK]] : f64, f64
func.func @damp(%x: f64, %k: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %big = arith.cmpf ogt, %v, %one : f64
    scf.condition(%big) %v : f64
  } do {
  ^bb0(%v: f64):
    %w = arith.mulf %v, %k : f64
    %s = math.sin %w : f64
    %tenth = arith.constant 0.1 : f64
    %t = arith.mulf %s, %tenth : f64
    %u = arith.addf %w, %t : f64
    scf.yield %u : f64
  }
  func.return %r : f64
}
func.func @d(%x: f64, %k: f64) -> !llvm.struct<(f64, f64)> {
  %d = autodiff.autodiff @damp(%x, %k) activity [active, active] ret active : (f64, f64) -> !llvm.struct<(f64, f64)>
  func.return %d : !llvm.struct<(f64, f64)>
}
