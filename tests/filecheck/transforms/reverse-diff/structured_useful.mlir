// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s

// Activity at the structured level is the llvm level's analysis (usefulness included): the
// temporary %t holds only %unused = x*x, which reaches no output, so it gets no shadow and the
// reversed loop does no work for it; %u, read into the result, gets its shadow %du.

// CHECK-LABEL: func.func private @diffe_f
// CHECK:         %t = memref.alloc() : memref<4xf64>
// CHECK-NEXT:    %u = memref.alloc() : memref<4xf64>
// CHECK-NEXT:    %du = memref.alloc() : memref<4xf64>
// CHECK-NOT:     memref.alloc
// CHECK:         %i_rev = arith.subi
// CHECK-NEXT:    %v_1 = memref.load %a[%i_rev] : memref<4xf64>
// CHECK-NEXT:    %[[DM:.*]] = memref.load %du[%i_rev] : memref<4xf64>
// CHECK-NEXT:    memref.store %{{.*}}, %du[%i_rev] : memref<4xf64>
// CHECK-NEXT:    %[[D:.*]] = arith.addf %{{.*}}, %[[DM]] : f64
// CHECK-NEXT:    arith.mulf %[[D]], %x : f64
// CHECK-NEXT:    arith.mulf %[[D]], %v_1 : f64
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    memref.load %da[%i_rev]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    memref.store {{.*}}, %da[%i_rev]
// CHECK-NEXT:    scf.yield
// CHECK-NOT:     %t
// CHECK:         memref.dealloc %du : memref<4xf64>
// CHECK-NEXT:    func.return
func.func @f(%x: f64, %a: memref<4xf64>, %n: index, %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc() : memref<4xf64>
  %u = memref.alloc() : memref<4xf64>
  %s, %cnt = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero, %c = %k) -> (f64, index) {
    %v = memref.load %a[%i] : memref<4xf64>
    %m = arith.mulf %v, %x : f64
    %unused = arith.mulf %x, %x : f64
    memref.store %unused, %t[%i] : memref<4xf64>
    memref.store %m, %u[%i] : memref<4xf64>
    %acc2 = arith.addf %acc, %m : f64
    %c2 = arith.addi %c, %c1 : index
    scf.yield %acc2, %c2 : f64, index
  }
  %w = memref.load %t[%c0] : memref<4xf64>
  %dead = arith.mulf %w, %w : f64
  %y = memref.load %u[%c1] : memref<4xf64>
  %r = arith.addf %s, %y : f64
  func.return %r : f64
}

func.func @df(%x: f64, %a: memref<4xf64>, %da: memref<4xf64>, %n: index, %k: index) -> f64 {
  %d = autodiff.autodiff @f(%x, %a, %da, %n, %k) activity [active, dup, const, const] ret active : (f64, memref<4xf64>, memref<4xf64>, index, index) -> f64
  func.return %d : f64
}
