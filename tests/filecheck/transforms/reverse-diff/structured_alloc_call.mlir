// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// memref.alloc gets a shadow, allocated beside it and zeroed; the program's dealloc moves to
// the end of the reverse sweep (which still reads the buffer), with the shadow's.  A func.call
// calls the callee's derivative (built the same way), which returns one adjoint per active
// float argument.

// CHECK-LABEL: func.func private @diffe_f(%x: memref<3xf64>, %dx: memref<3xf64>, %y: f64, %seed: f64) -> f64
// CHECK:         %t = memref.alloc() : memref<3xf64>
// CHECK-NEXT:    %dt = memref.alloc() : memref<3xf64>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      memref.store %{{.*}}, %dt[%{{.*}}] : memref<3xf64>
// CHECK:         %h = func.call @hyp(%t0, %y) : (f64, f64) -> f64
// CHECK-NOT:     memref.dealloc %t
// CHECK:         %{{.*}}, %[[DY:.*]] = func.call @diffe_hyp(%t0, %y, %seed) : (f64, f64, f64) -> (f64, f64)
// CHECK:         memref.dealloc %dt : memref<3xf64>
// CHECK-NEXT:    memref.dealloc %t : memref<3xf64>
// CHECK-NEXT:    func.return %[[DY]] : f64

// CHECK-LABEL: func.func private @diffe_hyp(%a: f64, %b: f64, %seed: f64) -> (f64, f64)
// CHECK:         %[[S:.*]] = math.sqrt
// CHECK:         func.return %{{.*}}, %{{.*}} : f64, f64
func.func private @hyp(%a: f64, %b: f64) -> f64 {
  %aa = arith.mulf %a, %a : f64
  %bb = arith.mulf %b, %b : f64
  %s = arith.addf %aa, %bb : f64
  %r = math.sqrt %s : f64
  func.return %r : f64
}

func.func @f(%x: memref<3xf64>, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = memref.alloc() : memref<3xf64>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %x[%i] : memref<3xf64>
    %e = math.exp %v : f64
    memref.store %e, %t[%i] : memref<3xf64>
  }
  %t0 = memref.load %t[%c0] : memref<3xf64>
  %h = func.call @hyp(%t0, %y) : (f64, f64) -> f64
  memref.dealloc %t : memref<3xf64>
  func.return %h : f64
}

func.func @df(%x: memref<3xf64>, %dx: memref<3xf64>, %y: f64) -> f64 {
  %d = autodiff.autodiff @f(%x, %dx, %y) activity [dup, active] ret active : (memref<3xf64>, memref<3xf64>, f64) -> f64
  func.return %d : f64
}
