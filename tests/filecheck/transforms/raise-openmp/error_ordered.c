// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// An `ordered` loop (its dispatcher schedule and the ordered region) in a differentiated
// function is an error naming the construct and its line.

extern void __enzyme_autodiff(void *, ...);

static void prefix(int n, double *x) {
#pragma omp parallel for ordered schedule(dynamic)
  for (int i = 1; i < n; i++) {
#pragma omp ordered
    x[i] += x[i - 1];
  }
}

double loss(int n, double *x) {
  prefix(n, x);
  return x[n - 1];
}

void grad(int n, double *x, double *dx) {
  __enzyme_autodiff((void *)loss, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_ordered.c:11:{{[0-9]+}}: OpenMP construct 'ordered' in @{{.*}}, which the derivative of @loss reaches, is not supported for differentiation (runtime call @__kmpc_
// CHECK-NOT:  Traceback
