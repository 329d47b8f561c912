// RUN: xenzyme-opt %s -p 'print-activity{function=f args=active,dup,const,const}' | filecheck %s
// RUN: xenzyme-opt %s -p 'print-activity{function=f args=const,dup,const,const}' | filecheck %s --check-prefix=XCONST
// RUN: xenzyme-opt %s -p 'print-activity{function=f args=active,dup,const,const ret=none}' | filecheck %s --check-prefix=NORET

// The activity analysis of the llvm level on structured input, through its structured
// interface: scf.for iteration arguments and results are carried values; memory objects are
// memrefs.  Active = varied (depends on %x or on %a's memory) and useful (reaches the return
// or %a's memory).
//   %unused depends on %x but reaches no output: const (no adjoint).
//   %t is a temporary that holds varied data, but only %dead reads it back: it needs no
//   shadow (const), and the store into it is not active.
//   %u is a temporary whose data is read into the result: it gets a shadow (dup).
//   %cnt is an index counter: integers never carry derivatives.

// CHECK-LABEL: func.func @f
// CHECK-SAME:    arg_activity = ["active", "dup", "const", "const"]
// CHECK:         memref.alloc() {activity = ["const"]} : memref<4xf64>
// CHECK-NEXT:    memref.alloc() {activity = ["dup"]} : memref<4xf64>
// CHECK:         scf.for {{.*}} {
// CHECK-NEXT:      memref.load {{.*}}activity = ["active"]
// CHECK-NEXT:      arith.mulf {{.*}}activity = ["active"]
// CHECK-NEXT:      arith.mulf {{.*}}activity = ["const"]
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      arith.addf {{.*}}activity = ["active"]
// CHECK-NEXT:      arith.addi {{.*}}activity = ["const"]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {activity = ["active", "const"], region_activity = ["const", "active", "const"]}
// CHECK-NEXT:    memref.load %t{{.*}}activity = ["const"]
// CHECK-NEXT:    arith.mulf {{.*}}activity = ["const"]
// CHECK-NEXT:    memref.load %u{{.*}}activity = ["active"]
// CHECK-NEXT:    arith.addf {{.*}}activity = ["active"]

// With %x const only %a's memory is varied; the loop still carries it.
// XCONST-LABEL: func.func @f
// XCONST:         memref.alloc() {activity = ["const"]} : memref<4xf64>
// XCONST-NEXT:    memref.alloc() {activity = ["dup"]} : memref<4xf64>
// XCONST:         } {activity = ["active", "const"], region_activity = ["const", "active", "const"]}

// Without an active return nothing is useful: every float is const, no temporary needs a shadow.
// NORET-LABEL: func.func @f
// NORET:         memref.alloc() {activity = ["const"]} : memref<4xf64>
// NORET-NEXT:    memref.alloc() {activity = ["const"]} : memref<4xf64>
// NORET:         } {activity = ["const", "const"], region_activity = ["const", "const", "const"]}
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
