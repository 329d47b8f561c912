// RUN: not xenzyme-opt %s -p forward-diff 2>&1 | filecheck %s

// Forward mode works on the llvm dialect: structured input is an error that says how to lower
// it first (the enzyme pipeline does so itself).  (Reverse mode takes structured input: see
// tests/filecheck/transforms/reverse-diff/structured_*.mlir.)

// CHECK: xenzyme-opt: error: {{.*}}error_needs_lowering.mlir:9:1: 'func.func' is in a structured dialect, but forward-diff works on the llvm dialect
// CHECK-NEXT: note: lower the module first: -p lower-structured,forward-diff, or use -p enzyme, which does
func.func @f(%x: f64) -> f64 {
  func.return %x : f64
}

func.func @df(%x: f64, %dx: f64) -> f64 {
  %d = autodiff.fwddiff @f(%x, %dx) activity [dup] ret dupnoneed : (f64, f64) -> f64
  func.return %d : f64
}
