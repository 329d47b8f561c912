/* `single` and `master` in a region: one thread computes a scale from the parameters (the
 * single's implicit barrier publishes it), every thread's iterations read it, and the master
 * thread writes a result from it.  The scale's adjoint gathers contributions from all threads
 * before it flows back into the single. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 95 };

__attribute__((noinline)) void f(int n, const double *p, const double *x, double *y, double *out) {
#pragma omp parallel
  {
#pragma omp single
    out[0] = p[0] * p[0] + sin(p[1]);
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = out[0] * x[i] + p[1] * x[i] * x[i];
#pragma omp master
    out[1] = out[0] * p[2];
  }
}

static double P[3] = {0.8, -0.6, 1.7}, X[N], C[N + 2];
static double loss(void) {
  double y[N], out[2], s = 0;
  f(N, P, X, y, out);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s + C[N] * out[0] + C[N + 1] * out[1];
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *p, double *dp, const double *x, double *dx, double *y, double *dy, double *out,
                  double *dout) {
  f(n, p, x, y, out);
  double sb = XZ_SEED * (dout[0] + dout[1] * p[2]);
  dp[2] += XZ_SEED * dout[1] * out[0];
  for (int i = 0; i < n; i++) {
    double yb = XZ_SEED * dy[i];
    sb += yb * x[i];
    dp[1] += yb * x[i] * x[i];
    dx[i] += yb * (out[0] + 2 * p[1] * x[i]);
    dy[i] = 0;
  }
  dp[0] += sb * 2 * p[0];
  dp[1] += sb * cos(p[1]);
  dout[0] = dout[1] = 0;
}
#endif

int main(void) {
  static double dx[N], y[N], dy[N];
  double dp[3] = {0}, out[2], dout[2];
  for (int i = 0; i < N + 2; i++) C[i] = 1 - 0.01 * i;
  for (int i = 0; i < N; i++) {
    X[i] = sin(0.9 * i + 0.3);
    dy[i] = C[i];
  }
  dout[0] = C[N], dout[1] = C[N + 1];
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, P, dp, enzyme_dup, X, dx, enzyme_dup, y, dy,
                            enzyme_dup, out, dout),
          ref_f(N, P, dp, X, dx, y, dy, out, dout));
  check_fd("dp", dp, P, 3, loss, 1e-6);
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_zero("dy", dy, N);
  check_zero("dout", dout, 2);
  return check_finish();
}
