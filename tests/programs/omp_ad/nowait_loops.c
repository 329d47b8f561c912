/* Loops with `nowait` in one region: with the same static schedule and trip count each thread
 * gets the same iterations in every loop, so the second loop may read what the first wrote
 * without a barrier, and the third (a reduction) what the second wrote.  The reverse sweep runs
 * the loops backwards with the same iterations per thread. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 145 };

__attribute__((noinline)) double chain(int n, const double *x, double *y, double *z) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++) y[i] = exp(0.3 * x[i]);
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++) z[i] = y[i] * x[i];
#pragma omp for schedule(static) reduction(+ : s)
    for (int i = 0; i < n; i++) s += z[i] * z[i];
  }
  return s;
}

#ifdef XZ_SELFCHECK
static double ref_chain(int n, const double *x, double *dx, double *y, double *dy, double *z, double *dz) {
  chain(n, x, y, z);
  for (int i = 0; i < n; i++) {
    double zb = dz[i] + XZ_SEED * 2 * z[i], yb = dy[i] + zb * x[i];
    dx[i] += zb * y[i] + yb * 0.3 * y[i];
    dy[i] = dz[i] = 0;
  }
  return 0;
}
#endif

int main(void) {
  static double x[N], dx[N], y[N], dy[N], z[N], dz[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 2 * cos(0.37 * i);
  XZ_DIFF(__enzyme_autodiff((void *)chain, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, z, dz),
          ref_chain(N, x, dx, y, dy, z, dz));
  for (int i = 0; i < N; i++) {
    double e = exp(0.3 * x[i]);
    want[i] = 2 * e * x[i] * (0.3 * e * x[i] + e);
  }
  check_all("dx", dx, want, N, 1e-13);
  check_zero("dy", dy, N);
  check_zero("dz", dz, N);
  return check_finish();
}
