// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// `single copyprivate` in a differentiated function is an error naming the construct.

extern void __enzyme_autodiff(void *, ...);

static void broadcast(int n, double *x) {
#pragma omp parallel
  {
    double v;
#pragma omp single copyprivate(v)
    v = x[0] * 2;
#pragma omp for
    for (int i = 1; i < n; i++) x[i] += v;
  }
}

double loss(int n, double *x) {
  broadcast(n, x);
  return x[n - 1];
}

void grad(int n, double *x, double *dx) {
  __enzyme_autodiff((void *)loss, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_copyprivate.c:13:{{[0-9]+}}: OpenMP construct 'single copyprivate' in @{{.*}}, which the derivative of @loss reaches, is not supported for differentiation (runtime call @__kmpc_copyprivate)
// CHECK-NOT:  Traceback
