/* Nested loops with runtime trip counts: ||A x||^2 with A and x both active. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { M = 7, K = 5 };

static double f(const double *a, const double *x, int m, int k) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double r = 0;
    for (int j = 0; j < k; j++) r += a[i * k + j] * x[j];
    s += r * r;
  }
  return s;
}

static double A[M * K], X[K];
static double fa(const double *a) { return f(a, X, M, K); }
static double fx(const double *x) { return f(A, x, M, K); }

int main(void) {
  double da[M * K] = {0}, dx[K] = {0};
  for (int i = 0; i < M * K; i++) A[i] = cos(0.3 * i);
  for (int j = 0; j < K; j++) X[j] = 0.2 * j - 0.4;
  __enzyme_autodiff((void *)f, enzyme_dup, A, da, enzyme_dup, X, dx, enzyme_const, M, enzyme_const, K);
  for (int i = 0; i < M * K; i += 5) check_close("df/da", da[i], fd_array(fa, A, i), 1e-6);
  for (int j = 0; j < K; j++) check_close("df/dx", dx[j], fd_array(fx, X, j), 1e-6);
  return check_finish();
}
