/* An atomic multiplication, `#pragma omp atomic` p[0] *= ..., which clang writes as a
 * compare-exchange loop: its adjoint needs the product of the other factors; beside it an atomic
 * addition into the same array. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 64 };

__attribute__((noinline)) void f(int n, const double *x, double *p) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    p[0] *= 1.0 + x[i] / n;
#pragma omp atomic
    p[1] += x[i] * x[i];
  }
}

/* d p0_final / d x_k = p0 (1/n) prod_{i != k} (1 + x_i / n); d p0_final / d p0 = prod_i (...) */
static void gradient(int n, const double *x, double p0, const double *dp, double *dx, double *dp0, double seed) {
  double pre[N + 1], suf[N + 1];
  pre[0] = suf[n] = 1;
  for (int i = 0; i < n; i++) pre[i + 1] = pre[i] * (1.0 + x[i] / n);
  for (int i = n - 1; i >= 0; i--) suf[i] = suf[i + 1] * (1.0 + x[i] / n);
  for (int k = 0; k < n; k++) dx[k] += seed * (dp[0] * p0 / n * pre[k] * suf[k + 1] + dp[1] * 2 * x[k]);
  *dp0 = seed * dp[0] * pre[n];
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *x, double *dx, double *p, double *dp) {
  double p0 = p[0], dp0;
  f(n, x, p);
  gradient(n, x, p0, dp, dx, &dp0, XZ_SEED);
  dp[0] = dp0;
}
#endif

int main(void) {
  static double x[N], dx[N], want[N];
  double p[2] = {1.5, 0.25}, dp[2] = {0.8, -0.3}, c[2] = {0.8, -0.3}, dp0;
  for (int i = 0; i < N; i++) x[i] = 3 * sin(1.9 * i);
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, p, dp), ref_f(N, x, dx, p, dp));
  gradient(N, x, 1.5, c, want, &dp0, 1.0);
  check_all("dx", dx, want, N, 1e-13);
  check_one("dp[0]", dp[0], dp0, 1e-13);
  check_one("dp[1] keeps its seed", dp[1], c[1], 0);
  return check_finish();
}
