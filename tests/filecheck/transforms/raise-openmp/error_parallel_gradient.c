// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// Until the parallel layer has derivative rules, a derivative request that reaches a parallel
// region is an error (differentiation would otherwise take the region for inactive code and
// return a zero derivative).

extern void __enzyme_autodiff(void *, ...);

double sumsq(int n, const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

void grad(int n, const double *x, double *dx) {
  __enzyme_autodiff((void *)sumsq, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_parallel_gradient.c:12:{{[0-9]+}}: cannot differentiate @sumsq: no derivative rule for 'par.parallel' (OpenMP parallel code) yet
// CHECK-NEXT: note: differentiate a serial version of the function, or move the parallel region out of it
// CHECK-NOT:  Traceback
