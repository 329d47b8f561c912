/* Forward mode through helpers that are not inlined and return memory they fill from their
 * arguments: a malloc'd buffer, a calloc'd one filled in a loop, and a helper returning one of
 * the pointers it was given (whose memory has no derivative: no shadow is asked of it). */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double *fill(double a, long tag) {
  double *d = (double *)malloc(2 * sizeof(double));
  d[0] = a * a;
  ((long *)d)[1] = tag;
  return d;
}

__attribute__((noinline)) double *series(double a, int n) {
  double *d = (double *)calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) d[i] = sin(a * (i + 1));
  return d;
}

__attribute__((noinline)) const double *pick(const double *p, const double *q, double c) { return c > 0 ? p : q; }

static const double table[3] = {1.5, -2.0, 0.25};
static const double other[3] = {0.5, 3.0, -1.0};

double f(double x) {
  double *a = fill(x, 7);
  double *b = series(x, 4);
  const double *t = pick(table, other, x - 0.5);
  double r = a[0] * x + b[0] * b[3] + t[1] * x;
  free(a);
  free(b);
  return r;
}

int main(void) {
  double xs[3] = {0.3, 0.9, 1.7};
  for (int i = 0; i < 3; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
  return check_finish();
}
