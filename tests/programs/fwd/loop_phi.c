/* Loop-carried values: a Horner polynomial, a running product and a recurrence. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x, const double *c, int n) {
  double p = 0, q = 1, r = x;
  for (int i = n - 1; i >= 0; i--) p = p * x + c[i];
  for (int i = 1; i <= n; i++) q *= (1 + x / i);
  for (int i = 0; i < n; i++) r = 0.5 * (r + x / r);
  return p + q + r;
}

static double c_g[7] = {1.0, -2.0, 0.5, 3.0, -1.0, 0.25, 0.125};
static double fx(double x) { return f(x, c_g, 7); }

int main(void) {
  double xs[3] = {0.3, 1.2, 2.5};
  double dc[7] = {0};
  for (int i = 0; i < 3; i++)
    check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0, enzyme_const, c_g, 7), fd1(fx, xs[i]), 1e-6);
  /* the tangent along the coefficients: d/dc_k = x^k */
  for (int k = 0; k < 7; k++) {
    for (int j = 0; j < 7; j++) dc[j] = j == k;
    check_close("df/dc", __enzyme_fwddiff((void *)f, enzyme_const, 1.2, c_g, dc, 7), pow(1.2, k), 1e-12);
  }
  return check_finish();
}
