// RUN: not xenzyme-opt %s -p convert-arith-to-llvm 2>&1 | filecheck %s

// An arith op with no lowering is an error naming it, where it is, and what to do.

// CHECK: xenzyme-opt: error: {{.*}}error_no_lowering.mlir:10:3: 'arith.ceildivui' has no lowering to the llvm dialect yet
// CHECK-NEXT: note: rewrite it with the arith ops that have one
// CHECK-NOT: Traceback

func.func @no_lowering(%x: i64, %y: i64) -> i64 {
  %z = arith.ceildivui %x, %y : i64
  func.return %z : i64
}
