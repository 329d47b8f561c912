/* schedule(dynamic) and schedule(dynamic, 3): iterations of uneven cost handed out at run time,
 * so which thread runs an iteration changes from run to run; parameters read by every iteration
 * (their adjoints gather contributions from all threads), one loop writing an array, one a
 * reduction. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 83 };

__attribute__((noinline)) void waves(int n, const double *x, const double *p, double *y) {
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j <= i % 5; j++) s += sin(x[i] * (j + 1) + p[1]);
    y[i] = p[0] * s;
  }
}

__attribute__((noinline)) double cubes(int n, const double *x, const double *p) {
  double s = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : s)
  for (int i = 0; i < n; i++) s += p[i % 2] * x[i] * x[i] * x[i];
  return s;
}

static double X[N], C[N], P[2] = {1.3, -0.4};

static double loss(void) {
  double y[N], s = 0;
  waves(N, X, P, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

static double loss_cubes(void) { return cubes(N, X, P); }

#ifdef XZ_SELFCHECK
static void ref_waves(int n, const double *x, double *dx, const double *p, double *dp, double *y, double *dy) {
  for (int i = 0; i < n; i++) {
    double s = 0, ds = 0, yb = XZ_SEED * dy[i];
    for (int j = 0; j <= i % 5; j++) {
      s += sin(x[i] * (j + 1) + p[1]);
      ds += cos(x[i] * (j + 1) + p[1]) * (j + 1);
      dp[1] += yb * p[0] * cos(x[i] * (j + 1) + p[1]);
    }
    y[i] = p[0] * s;
    dx[i] += yb * p[0] * ds;
    dp[0] += yb * s;
    dy[i] = 0;
  }
}
static void ref_cubes(int n, const double *x, double *dx, const double *p, double *dp) {
  for (int i = 0; i < n; i++) {
    dx[i] += XZ_SEED * 3 * p[i % 2] * x[i] * x[i];
    dp[i % 2] += XZ_SEED * x[i] * x[i] * x[i];
  }
}
#endif

int main(void) {
  static double dx[N], dp[2], y[N], dy[N], dx2[N], dp2[2];
  for (int i = 0; i < N; i++) {
    X[i] = 0.8 * cos(0.9 * i) + 0.1;
    C[i] = 1.0 - 0.02 * i;
    dy[i] = C[i];
  }
  XZ_DIFF(__enzyme_autodiff((void *)waves, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, P, dp, enzyme_dup, y, dy),
          ref_waves(N, X, dx, P, dp, y, dy));
  check_fd("waves dx", dx, X, N, loss, 1e-6);
  check_fd("waves dp", dp, P, 2, loss, 1e-6);
  check_zero("dy", dy, N);

  XZ_DIFF(__enzyme_autodiff((void *)cubes, enzyme_const, N, enzyme_dup, X, dx2, enzyme_dup, P, dp2),
          ref_cubes(N, X, dx2, P, dp2));
  check_fd("cubes dx", dx2, X, N, loss_cubes, 1e-6);
  check_fd("cubes dp", dp2, P, 2, loss_cubes, 1e-6);
  return check_finish();
}
