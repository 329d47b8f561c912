/* `omp atomic` updates into a shared array: +=, -= and the `x = x - expr` form of an atomic
 * update (a subtraction's adjoint has the opposite sign of an addition's).  The array is
 * accumulated into, so its shadow keeps its seed. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 160, K = 6 };

__attribute__((noinline)) void f(int n, const double *x, const double *w, double *acc) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    acc[i % 4] += w[i] * x[i];
#pragma omp atomic
    acc[4] -= 0.5 * x[i] * x[i];
#pragma omp atomic update
    acc[5] = acc[5] - sin(x[i]);
  }
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *x, double *dx, const double *w, double *dw, double *acc, double *dacc) {
  f(n, x, w, acc);
  for (int i = 0; i < n; i++) {
    dx[i] += XZ_SEED * (dacc[i % 4] * w[i] - dacc[4] * x[i] - dacc[5] * cos(x[i]));
    dw[i] += XZ_SEED * dacc[i % 4] * x[i];
  }
}
#endif

int main(void) {
  static double x[N], w[N], dx[N], dw[N], want[N];
  double acc[K] = {1, 2, 3, 4, 5, 6}, dacc[K], c[K] = {0.5, -1.0, 1.5, 0.25, 2.0, -0.75};
  memcpy(dacc, c, sizeof c);
  for (int i = 0; i < N; i++) {
    x[i] = sin(0.29 * i) * 1.7;
    w[i] = 1 + 0.1 * (i % 9);
  }
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, acc, dacc),
          ref_f(N, x, dx, w, dw, acc, dacc));
  for (int i = 0; i < N; i++) want[i] = c[i % 4] * w[i] - c[4] * x[i] - c[5] * cos(x[i]);
  check_all("dx", dx, want, N, 1e-14);
  for (int i = 0; i < N; i++) want[i] = c[i % 4] * x[i];
  check_all("dw", dw, want, N, 1e-14);
  check_all("dacc keeps its seed", dacc, c, K, 0);
  return check_finish();
}
