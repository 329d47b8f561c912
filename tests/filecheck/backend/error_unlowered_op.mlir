// RUN: not xenzyme-opt %s -t llvm 2>&1 | filecheck %s

// An op from another dialect left in a function cannot be printed as LLVM IR: one error line,
// with a note on what to do, and no traceback.

llvm.func @f(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  llvm.return %y : i32
}

// CHECK:      xenzyme-opt: error: in @f: 'arith.addi' cannot be exported to LLVM IR
// CHECK-NEXT: note: lower it to the llvm dialect first
// CHECK-NOT:  Traceback
