// RUN: not xenzyme-opt %s -p forward-diff 2>&1 | filecheck %s

// A request for a function of which only the declaration is available.

builtin.module attributes {llvm.source_filename = "prog.c"} {
  llvm.func @f(f64) -> f64
  llvm.func @g(%x: f64, %dx: f64) -> f64 {
    %t = autodiff.fwddiff @f(%x, %dx) activity [dup] ret dupnoneed : (f64, f64) -> f64
    llvm.return %t : f64
  }
}

// CHECK:      xenzyme-opt: error: prog.c: cannot differentiate @f: only its declaration is available
// CHECK-NEXT: note: the function's body must be in the same module (compile it into this file)
// CHECK-NOT:  Traceback
