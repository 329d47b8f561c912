/* Three parallel regions in one call: a sum of squares (reduction), a normalisation to root mean
 * square 1 that reads its result, and a weighted sum of cubes; the reverse sweep runs them in
 * the opposite order. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 130 };

__attribute__((noinline)) double f(int n, const double *x, const double *w, double *y) {
  double ss = 0, s = 0;
#pragma omp parallel for reduction(+ : ss)
  for (int i = 0; i < n; i++) ss += x[i] * x[i];
  double r = sqrt(n / ss);
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * r;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += w[i] * y[i] * y[i] * y[i];
  return s;
}

static double X[N], W[N];
static double loss(void) {
  double y[N];
  return f(N, X, W, y);
}

#ifdef XZ_SELFCHECK
static double ref_f(int n, const double *x, double *dx, const double *w, double *dw, double *y, double *dy) {
  f(n, x, w, y);
  double ss = 0, yb[N], dot = 0;
  for (int i = 0; i < n; i++) ss += x[i] * x[i];
  double r = sqrt(n / ss);
  for (int i = 0; i < n; i++) {
    dw[i] += XZ_SEED * y[i] * y[i] * y[i];
    yb[i] = dy[i] + XZ_SEED * 3 * w[i] * y[i] * y[i];
    dot += yb[i] * x[i];
    dy[i] = 0;
  }
  /* y = x r, r = (ss / n)^(-1/2): dx_i = yb_i r - (sum_j yb_j x_j) r^3 x_i / n */
  for (int i = 0; i < n; i++) dx[i] += yb[i] * r - dot * r * r * r * x[i] / n;
  return 0;
}
#endif

int main(void) {
  static double dx[N], dw[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    X[i] = sin(0.33 * i) + 0.2;
    W[i] = 1 + cos(0.05 * i);
  }
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, W, dw, enzyme_dup, y, dy),
          ref_f(N, X, dx, W, dw, y, dy));
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_fd("dw", dw, W, N, loss, 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
