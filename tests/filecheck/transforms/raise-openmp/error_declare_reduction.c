// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// A reduction whose combiner is not one xenzyme recognises (a user-defined reduction calls its
// combiner function) stays a runtime call: in a differentiated function, an error that says so.

extern void __enzyme_autodiff(void *, ...);

typedef struct { double lo, hi; } range;
static range widen(range a, range b) { return (range){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi}; }
#pragma omp declare reduction(span : range : omp_out = widen(omp_out, omp_in)) initializer(omp_priv = omp_orig)

static double extent(int n, const double *x) {
  range r = {x[0], x[0]};
#pragma omp parallel for reduction(span : r)
  for (int i = 0; i < n; i++) r = widen(r, (range){x[i], x[i]});
  return r.hi - r.lo;
}

double loss(int n, double *x) { return extent(n, x); }

void grad(int n, double *x, double *dx) {
  __enzyme_autodiff((void *)loss, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_declare_reduction.c:{{[0-9]+}}:{{[0-9]+}}: OpenMP construct 'reduction' ({{.*}}) in @{{.*}}, which the derivative of @loss reaches, is not supported for differentiation (runtime call @__kmpc_reduce_nowait)
// CHECK-NOT:  Traceback
