// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O0 --clang-arg=-gline-tables-only -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O2 -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=NODEBUG

// A '*' reduction of a worksharing loop whose function is differentiated on its own (the
// request is made inside the region, not around it) has no team to combine the threads'
// factors with in reverse: an error at the construct's line (with debug information; without,
// in the function), not a wrong derivative.  Called from a parallel region the same loop is fine
// (tests/programs/omp_ad/).

extern void __enzyme_autodiff(void *, ...);

void part(int n, const double *x, double *p) {
#pragma omp for reduction(* : p[0])
  for (int i = 0; i < n; i++) p[0] *= x[i];
}

void grad(int n, double *x, double *dx, double *p, double *dp) {
#pragma omp parallel
  __enzyme_autodiff((void *)part, n, x, dx, p, dp);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_parallel_orphaned_product.c:15:{{[0-9]+}}: cannot differentiate @part: a 'mul' reduction outside a parallel region
// CHECK:      note: call the function from inside the parallel region, or use a '+' reduction
// CHECK-NOT:  Traceback

// NODEBUG:    xenzyme-opt: error: {{.*}}error_parallel_orphaned_product.c: cannot differentiate @part: a 'mul' reduction outside a parallel region
