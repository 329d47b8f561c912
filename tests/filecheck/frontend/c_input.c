// REQUIRES: clang
// RUN: xenzyme-opt %s | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O0 | filecheck %s --check-prefix=O0
// RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

// C input goes through clang-19 (-O2 unless --clang-arg says otherwise) and then the importer.

double square_sum(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

// CHECK-LABEL: llvm.func local_unnamed_addr @square_sum(
// CHECK:         llvm.intr.fmuladd

// At -O0 clang marks functions optnone and keeps locals on the stack.
// O0-LABEL: llvm.func @square_sum(
// O0-SAME:    passthrough = [{{.*}}"optnone"
// O0:         llvm.alloca

// LLVM-LABEL: define dso_local double @square_sum(ptr noundef readonly captures(none) %{{.*}}, i32 noundef %{{.*}}) local_unnamed_addr
