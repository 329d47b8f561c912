/* firstprivate: an array and a scalar computed from active inputs before the region and copied
 * into each thread (their adjoints come back from every copy); an active scalar parameter
 * (enzyme_out) read through one of them. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 88 };

__attribute__((noinline)) double f(int n, double a, const double *p, const double *x, double *y) {
  double c[3] = {p[0] * 2, p[1] * p[1], p[2] + a};
  double off = a * a;
  double s = 0;
#pragma omp parallel for firstprivate(c, off) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = c[i % 3] * x[i] + off * sin(x[i]);
    s += y[i] * x[i];
  }
  return s;
}

static double A = 0.6, P[3] = {0.5, -1.2, 0.3}, X[N], C[N];
static double loss(void) {
  double y[N];
  double s = f(N, A, P, X, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

#ifdef XZ_SELFCHECK
static double ref_f(int n, double a, const double *p, double *dp, const double *x, double *dx, double *y, double *dy) {
  double c[3] = {p[0] * 2, p[1] * p[1], p[2] + a}, dc[3] = {0}, doff = 0, da = 0, off = a * a;
  f(n, a, p, x, y);
  for (int i = 0; i < n; i++) {
    double yb = XZ_SEED * (dy[i] + x[i]);
    dx[i] += XZ_SEED * y[i] + yb * (c[i % 3] + off * cos(x[i]));
    dc[i % 3] += yb * x[i];
    doff += yb * sin(x[i]);
    dy[i] = 0;
  }
  dp[0] += 2 * dc[0];
  dp[1] += 2 * p[1] * dc[1];
  dp[2] += dc[2];
  da += dc[2] + 2 * a * doff;
  return da;
}
#endif

int main(void) {
  static double dx[N], y[N], dy[N];
  double dp[3] = {0};
  for (int i = 0; i < N; i++) {
    X[i] = cos(0.77 * i) * 1.1;
    dy[i] = C[i] = 0.5 + 0.5 * sin(0.4 * i);
  }
  double da = XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_out, A, enzyme_dup, P, dp, enzyme_dup, X, dx,
                                        enzyme_dup, y, dy),
                      ref_f(N, A, P, dp, X, dx, y, dy));
  check_one("da", da, fd_at(loss, &A), 1e-6);
  check_fd("dp", dp, P, 3, loss, 1e-6);
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
