// RUN: xenzyme-opt %s -p convert-affine-to-scf | filecheck %s

// An affine.for becomes an scf.for over the values its bound maps give (a symbol bound is its
// operand); an access's map is evaluated on its operands (dimensions, then symbols) with arith;
// mod is the non-negative remainder (a - floordiv(a, b) * b).

// CHECK-LABEL: func.func @f(%x: memref<?xf64>, %n: index) -> f64 {
// CHECK:         %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ST:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %r = scf.for %i = %[[LB]] to %n step %[[ST]] iter_args(%acc = %z) -> (f64) {
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[IP:.*]] = arith.addi %i, %[[ONE]] : index
// CHECK-NEXT:      %a = memref.load %x[%[[IP]]] : memref<?xf64>
// CHECK-NEXT:      %[[S:.*]] = arith.addi %i, %n : index
// CHECK-NEXT:      %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[Q:.*]] = arith.floordivsi %[[S]], %[[FIVE]] : index
// CHECK-NEXT:      %[[QB:.*]] = arith.muli %[[Q]], %[[FIVE]] : index
// CHECK-NEXT:      %k = arith.subi %[[S]], %[[QB]] : index
// CHECK-NEXT:      memref.store %a, %x[%k] : memref<?xf64>
// CHECK-NEXT:      %s = arith.addf %acc, %a : f64
// CHECK-NEXT:      scf.yield %s : f64
// CHECK-NEXT:    }
func.func @f(%x: memref<?xf64>, %n: index) -> f64 {
  %z = arith.constant 0.0 : f64
  %r = affine.for %i = 0 to %n iter_args(%acc = %z) -> (f64) {
    %a = affine.load %x[%i + 1] : memref<?xf64>
    %k = affine.apply affine_map<(d0)[s0] -> ((d0 + s0) mod 5)>(%i)[%n]
    affine.store %a, %x[%k] : memref<?xf64>
    %s = arith.addf %acc, %a : f64
    affine.yield %s : f64
  }
  func.return %r : f64
}

// Bounds with several results: the largest lower bound, the smallest upper one.
// CHECK-LABEL: func.func @minmax(
// CHECK:         %[[L:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[U:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %i = %[[L]] to %[[U]] step %{{.*}} {
func.func @minmax(%x: memref<?xf64>, %a: index, %b: index) {
  %c = arith.constant 1.0 : f64
  affine.for %i = max affine_map<()[s0] -> (0, s0)>()[%a] to min affine_map<()[s0] -> (8, s0)>()[%b] {
    affine.store %c, %x[%i] : memref<?xf64>
  }
  func.return
}
