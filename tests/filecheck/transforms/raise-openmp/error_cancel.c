// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// Cancellation in a differentiated function is an error naming the construct and its line.

extern void __enzyme_autodiff(void *, ...);

static void clip(int n, double *x) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (x[i] < 0) {
#pragma omp cancel for
    }
    x[i] *= 2;
  }
}

double loss(int n, double *x) {
  clip(n, x);
  return x[0];
}

void grad(int n, double *x, double *dx) {
  __enzyme_autodiff((void *)loss, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_cancel.c:12:{{[0-9]+}}: OpenMP construct 'cancel' in @{{.*}}, which the derivative of @loss reaches, is not supported for differentiation (runtime call @__kmpc_cancel)
// CHECK-NOT:  Traceback
