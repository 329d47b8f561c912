/* lastprivate(t) with schedule(static, 3): the value of t after the loop is the one computed by
 * the last iteration, on whichever thread ran it; only that iteration's input reaches the result
 * through t. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 100 };

__attribute__((noinline)) double f(int n, const double *x, double *y) {
  double t = 0;
#pragma omp parallel for schedule(static, 3) lastprivate(t)
  for (int i = 0; i < n; i++) {
    t = x[i] * x[i] + sin(x[i]);
    y[i] = t * 0.5;
  }
  return t * t;
}

#ifdef XZ_SELFCHECK
static double ref_f(int n, const double *x, double *dx, double *y, double *dy) {
  f(n, x, y);
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i] + sin(x[i]), tb = XZ_SEED * (0.5 * dy[i] + (i == n - 1 ? 2 * t : 0));
    dx[i] += tb * (2 * x[i] + cos(x[i]));
    dy[i] = 0;
  }
  return 0;
}
#endif

int main(void) {
  static double x[N], dx[N], y[N], dy[N], c[N], want[N];
  for (int i = 0; i < N; i++) {
    x[i] = sin(1.7 * i) + 0.5;
    dy[i] = c[i] = 0.1 * (i % 10);
  }
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, y, dy), ref_f(N, x, dx, y, dy));
  for (int i = 0; i < N; i++) {
    double t = x[i] * x[i] + sin(x[i]);
    want[i] = (0.5 * c[i] + (i == N - 1 ? 2 * t : 0)) * (2 * x[i] + cos(x[i]));
  }
  check_all("dx", dx, want, N, 1e-13);
  check_zero("dy", dy, N);
  return check_finish();
}
