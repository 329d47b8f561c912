/* Forward mode (__enzyme_fwddiff) of `parallel for` loops: a map with a duplicated scalar
 * parameter whose tangent every iteration reads, its output marked dupnoneed, and a float map
 * that reads a neighbour; each output tangent against central differences along the input
 * tangents (the float one against its value computed in double). */
#include "omp_check.h"

extern void __enzyme_fwddiff(void *, ...);
enum { N = 99 };

__attribute__((noinline)) void f(int n, double a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = a * sin(x[i]) + a * x[i] * x[i];
}

__attribute__((noinline)) void ff(int n, const float *x, float *y) {
#pragma omp parallel for schedule(static, 2)
  for (int i = 0; i < n; i++) y[i] = expf(0.5f * x[i]) * x[(i + 1) % n];
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, double a, double da, const double *x, const double *dx, double *y, double *dy) {
  for (int i = 0; i < n; i++) {
    y[i] = a * sin(x[i]) + a * x[i] * x[i];
    dy[i] = XZ_SEED * (da * (sin(x[i]) + x[i] * x[i]) + dx[i] * a * (cos(x[i]) + 2 * x[i]));
  }
}
static void ref_ff(int n, const float *x, const float *dx, float *y, float *dy) {
  ff(n, x, y);
  for (int i = 0; i < n; i++) {
    double e = exp(0.5 * x[i]), b = x[(i + 1) % n];
    dy[i] = (float)(XZ_SEED * (0.5 * e * b * dx[i] + e * dx[(i + 1) % n]));
  }
}
#endif

int main(void) {
  static double x[N], dx[N], y[N], dy[N], xp[N], xm[N], yp[N], ym[N], want[N];
  static float xf[N], dxf[N], yf[N], dyf[N];
  double a = 0.8, da = -0.6, h = 1e-6;
  for (int i = 0; i < N; i++) {
    x[i] = 1.5 * cos(0.43 * i);
    dx[i] = xz_dir(i);
    xf[i] = (float)x[i];
    dxf[i] = (float)dx[i];
  }
  XZ_DIFF(__enzyme_fwddiff((void *)f, enzyme_const, N, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy),
          ref_f(N, a, da, x, dx, y, dy));
  for (int i = 0; i < N; i++) xp[i] = x[i] + h * dx[i], xm[i] = x[i] - h * dx[i];
  f(N, a + h * da, xp, yp);
  f(N, a - h * da, xm, ym);
  for (int i = 0; i < N; i++) want[i] = (yp[i] - ym[i]) / (2 * h);
  check_all("dy", dy, want, N, 1e-6);

  XZ_DIFF(__enzyme_fwddiff((void *)ff, enzyme_const, N, enzyme_dup, xf, dxf, enzyme_dup, yf, dyf), ref_ff(N, xf, dxf, yf, dyf));
  for (int i = 0; i < N; i++) {
    double e = exp(0.5 * xf[i]);
    want[i] = 0.5 * e * xf[(i + 1) % N] * dxf[i] + e * dxf[(i + 1) % N];
  }
  check_allf("dyf", dyf, want, N, 1e-5);
  return check_finish();
}
