// RUN: not xenzyme-opt %s -p convert-math-to-llvm 2>&1 | filecheck %s

// CHECK: xenzyme-opt: error: {{.*}}error_no_lowering.mlir:8:3: 'math.ctpop' has no lowering to the llvm dialect yet
// CHECK-NEXT: note: use the math ops on floats
// CHECK-NOT: Traceback

func.func @bits(%x: i64) -> i64 {
  %n = math.ctpop %x : i64
  func.return %n : i64
}
