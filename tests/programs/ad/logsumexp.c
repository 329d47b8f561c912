/* logsumexp with the max-shift for stability: the gradient is softmax(x), checked exactly
 * (the derivative through the max cancels); also a float version. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 100 };

static double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

static float lsef(const float *x, int n) {
  float m = x[0];
  for (int i = 1; i < n; i++) m = fmaxf(m, x[i]);
  float s = 0;
  for (int i = 0; i < n; i++) s += expf(x[i] - m);
  return m + logf(s);
}

int main(void) {
  double x[N], dx[N] = {0};
  float xf[N], dxf[N] = {0};
  for (int i = 0; i < N; i++) { x[i] = 3.0 * sin(0.37 * i); xf[i] = (float)x[i]; }
  __enzyme_autodiff((void *)lse, x, dx, N);
  double l = lse(x, N), sum = 0;
  for (int i = 0; i < N; i++) sum += dx[i];
  check_close("sum of softmax", sum, 1.0, 1e-12);
  for (int i = 0; i < N; i += 7) check_close("dlse/dx = softmax", dx[i], exp(x[i] - l), 1e-12);
  __enzyme_autodiff((void *)lsef, xf, dxf, N);
  double lf = lsef(xf, N);
  for (int i = 0; i < N; i += 7) check_close("dlsef/dx = softmax", dxf[i], exp(xf[i] - lf), 1e-5);
  return check_finish();
}
