/* Integers have no tangent (loop counters converted to double, integer math on indices);
 * float <-> double conversions carry it. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x, const float *w, int n) {
  double s = 0;
  int k = (int)(x * 10); /* truncation: piecewise constant */
  for (int i = 0; i < n; i++) {
    float xf = (float)(x * w[i]);
    s += (double)(xf * xf) * (i + k) + sqrt((double)i + x);
  }
  return s;
}

static float w_g[4] = {0.5f, 1.0f, -1.5f, 2.0f};

int main(void) {
  double x = 0.73, want = 0;
  int k = (int)(x * 10);
  for (int i = 0; i < 4; i++) { /* exact: the float square's derivative, then sqrt's */
    float xf = (float)(x * w_g[i]);
    want += 2.0 * xf * w_g[i] * (i + k) + 0.5 / sqrt(i + x);
  }
  check_close("f'", __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, w_g, 4), want, 1e-6);
  return check_finish();
}
