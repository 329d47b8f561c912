// REQUIRES: clang
// RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O0 -p enzyme -t llvm | filecheck %s

// C++ with a std::vector alive across the request: clang emits `invoke` for the call to
// __enzyme_autodiff (the vector's destructor runs if it throws).  It is differentiated like a
// call; nothing refers to __enzyme_autodiff afterwards (it used to stay, undefined at link time).

#include <vector>

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;

static double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

double grad(int n) {
  std::vector<double> x(n, 1.5), dx(n, 0.0);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x.data(), dx.data(), enzyme_const, n);
  return dx[0];
}

// CHECK-NOT:   __enzyme_autodiff
// CHECK-LABEL: define {{.*}}double @_Z4gradi(
// CHECK-NOT:   __enzyme_autodiff
