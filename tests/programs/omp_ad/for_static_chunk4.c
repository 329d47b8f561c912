/* schedule(static, 4): a three-point smoothing times tanh, in double and in float; the reads of
 * x[i-1] and x[i+1] cross the chunk boundaries, which belong to other threads.  The float
 * version is checked against its derivative computed in double. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 90 };

__attribute__((noinline)) void smooth(int n, const double *x, double *y) {
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++) {
    double l = x[i > 0 ? i - 1 : i], r = x[i < n - 1 ? i + 1 : i];
    y[i] = 0.25 * (l + 2 * x[i] + r) * tanh(x[i]);
  }
}

__attribute__((noinline)) void smoothf(int n, const float *x, float *y) {
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++) {
    float l = x[i > 0 ? i - 1 : i], r = x[i < n - 1 ? i + 1 : i];
    y[i] = 0.25f * (l + 2 * x[i] + r) * tanhf(x[i]);
  }
}

static double X[N], C[N];

static double loss(void) {
  double y[N], s = 0;
  smooth(N, X, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

/* The gradient of sum_i c_i y_i in double: dx += c^T dy/dx. */
static void grad(int n, const double *x, const double *c, double *dx, double seed) {
  for (int i = 0; i < n; i++) {
    int il = i > 0 ? i - 1 : i, ir = i < n - 1 ? i + 1 : i;
    double yb = seed * c[i], t = tanh(x[i]), m = 0.25 * (x[il] + 2 * x[i] + x[ir]);
    dx[i] += yb * (0.5 * t + m * (1 - t * t));
    dx[il] += yb * 0.25 * t;
    dx[ir] += yb * 0.25 * t;
  }
}

#ifdef XZ_SELFCHECK
static void ref_smooth(int n, const double *x, double *dx, double *y, double *dy) {
  smooth(n, x, y);
  grad(n, x, dy, dx, XZ_SEED);
  for (int i = 0; i < n; i++) dy[i] = 0;
}
static void ref_smoothf(int n, const float *x, float *dx, float *y, float *dy) {
  double xd[N], c[N], g[N] = {0};
  for (int i = 0; i < n; i++) xd[i] = x[i], c[i] = dy[i];
  smoothf(n, x, y);
  grad(n, xd, c, g, XZ_SEED);
  for (int i = 0; i < n; i++) dx[i] += (float)g[i], dy[i] = 0;
}
#endif

int main(void) {
  static double dx[N], y[N], dy[N], xd[N], want[N];
  static float xf[N], dxf[N], yf[N], dyf[N];
  for (int i = 0; i < N; i++) {
    X[i] = 1.2 * sin(0.45 * i) - 0.2;
    C[i] = 0.5 + 0.5 * cos(0.21 * i);
    dy[i] = C[i];
    xf[i] = (float)X[i];
    dyf[i] = (float)C[i];
  }
  XZ_DIFF(__enzyme_autodiff((void *)smooth, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, y, dy),
          ref_smooth(N, X, dx, y, dy));
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_zero("dy", dy, N);

  XZ_DIFF(__enzyme_autodiff((void *)smoothf, enzyme_const, N, enzyme_dup, xf, dxf, enzyme_dup, yf, dyf),
          ref_smoothf(N, xf, dxf, yf, dyf));
  for (int i = 0; i < N; i++) xd[i] = xf[i];
  grad(N, xd, C, want, 1.0);
  check_allf("dxf", dxf, want, N, 1e-5);
  check_zerof("dyf", dyf, N);
  return check_finish();
}
