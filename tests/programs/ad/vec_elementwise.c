/* Elementwise loops that vectorise without fast-math (no reassociation needed): y = a*x^2 +
 * sqrt(x) + fabs(x - 1) written to an output array, then an in-place scaling; floats and doubles. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 131 };

static void f(const double *restrict x, double *restrict y, double a, int n) {
  for (int i = 0; i < n; i++) y[i] = a * x[i] * x[i] + sqrt(x[i]) + fabs(x[i] - 1.0);
  for (int i = 0; i < n; i++) y[i] = y[i] * 0.5 + fmax(x[i], 2.0);
}

static void g(const float *restrict x, float *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] * 0.25f - x[i] / (1.0f + x[i]);
}

static double W[N], A = 1.3;
static double obj(const double *x) {
  double y[N], s = 0;
  f(x, y, A, N);
  for (int i = 0; i < N; i++) s += W[i] * y[i];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N];
  float xf[N], dxf[N] = {0}, yf[N], dyf[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.2 + 0.021 * i + (i % 7 == 0 ? 0.003 : 0); /* away from 1.0 and 2.0 */
    W[i] = cos(0.05 * i);
    dy[i] = W[i];
    xf[i] = (float)x[i];
    dyf[i] = 1.0f;
  }
  __enzyme_autodiff((void *)f, x, dx, y, dy, enzyme_const, A, N);
  for (int i = 0; i < N; i += 5) check_close("dobj/dx", dx[i], fd_array(obj, x, i), 1e-6);
  check_zero("dy", dy, N);
  __enzyme_autodiff((void *)g, xf, dxf, yf, dyf, N);
  for (int i = 0; i < N; i += 10) {
    double v = xf[i];
    check_close("dg/dx", dxf[i], 0.5 * v - 1.0 / ((1 + v) * (1 + v)), 1e-6);
  }
  check_zerof("dyf", dyf, N);
  return check_finish();
}
