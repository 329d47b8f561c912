/* reduction(+ : s): a weighted sum returned by the function, and two variables in one clause
 * (reduction(+ : s, q)) combined after the region into a mean and a variance written to an
 * output array. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 150 };

__attribute__((noinline)) double dot_exp(int n, const double *x, const double *y) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * y[i] * exp(-x[i]);
  return s;
}

__attribute__((noinline)) void moments(int n, const double *x, double *out) {
  double s = 0, q = 0;
#pragma omp parallel for reduction(+ : s, q)
  for (int i = 0; i < n; i++) {
    s += x[i];
    q += x[i] * x[i];
  }
  out[0] = s / n;
  out[1] = q / n - out[0] * out[0];
}

#ifdef XZ_SELFCHECK
static void ref_dot_exp(int n, const double *x, double *dx, const double *y, double *dy) {
  for (int i = 0; i < n; i++) {
    dx[i] += XZ_SEED * y[i] * exp(-x[i]) * (1 - x[i]);
    dy[i] += XZ_SEED * x[i] * exp(-x[i]);
  }
}
static void ref_moments(int n, const double *x, double *dx, double *out, double *dout) {
  moments(n, x, out);
  double b0 = XZ_SEED * dout[0], b1 = XZ_SEED * dout[1];
  for (int i = 0; i < n; i++) dx[i] += b0 / n + b1 * (2 * x[i] / n - 2 * out[0] / n);
  dout[0] = dout[1] = 0;
}
#endif

int main(void) {
  static double x[N], y[N], dx[N], dy[N], want[N], dx2[N];
  double out[2], dout[2] = {0.7, -1.3};
  for (int i = 0; i < N; i++) {
    x[i] = 2 * sin(0.61 * i);
    y[i] = cos(0.17 * i);
  }
  XZ_DIFF(__enzyme_autodiff((void *)dot_exp, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, y, dy),
          ref_dot_exp(N, x, dx, y, dy));
  for (int i = 0; i < N; i++) want[i] = y[i] * exp(-x[i]) * (1 - x[i]);
  check_all("dot dx", dx, want, N, 1e-13);
  for (int i = 0; i < N; i++) want[i] = x[i] * exp(-x[i]);
  check_all("dot dy", dy, want, N, 1e-13);

  XZ_DIFF(__enzyme_autodiff((void *)moments, enzyme_const, N, enzyme_dup, x, dx2, enzyme_dup, out, dout),
          ref_moments(N, x, dx2, out, dout));
  double mean = 0;
  for (int i = 0; i < N; i++) mean += x[i];
  mean /= N;
  for (int i = 0; i < N; i++) want[i] = 0.7 / N - 1.3 * (2 * x[i] / N - 2 * mean / N);
  check_all("moments dx", dx2, want, N, 1e-12);
  check_zero("dout", dout, 2);
  return check_finish();
}
