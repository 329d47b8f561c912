// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// Vector forward mode through a '*' reduction (whose tangent combines the threads' copies in
// a helper written for one tangent) is an error at the construct's line, not a wrong tangent.

typedef struct { double d[2]; } pair;
extern pair __enzyme_fwddiff(void *, ...);
extern int enzyme_width;

double product(int n, const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}

pair tangents(int n, double *x, double *dx0, double *dx1) {
  return __enzyme_fwddiff((void *)product, enzyme_width, 2, n, x, dx0, dx1);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_parallel_vector_product.c:{{[0-9]+}}:{{[0-9]+}}: {{.*}}a 'mul' reduction or atomic update in vector forward mode (width 2) is not
// CHECK-NOT:  Traceback
