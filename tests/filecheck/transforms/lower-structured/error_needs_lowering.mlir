// RUN: not xenzyme-opt %s -p reverse-diff 2>&1 | filecheck %s

// The differentiation passes work on the llvm dialect: structured input is an error that says
// how to lower it first (the enzyme pipeline does so itself).

// CHECK: xenzyme-opt: error: {{.*}}error_needs_lowering.mlir:8:1: 'func.func' is in a structured dialect, but reverse-diff works on the llvm dialect
// CHECK-NEXT: note: lower the module first: -p lower-structured,reverse-diff, or use -p enzyme, which does
func.func @f(%x: f64) -> f64 {
  func.return %x : f64
}

func.func @df(%x: f64) -> f64 {
  %d = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
  func.return %d : f64
}
