// CFLAGS: -ffast-math
/* Loops the vectoriser turns into SIMD code: elementwise maps, a dot product reduction, a
 * max reduction.  Tangents of vector instructions and of vector.reduce intrinsics. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(const double *x, const double *y, int n) {
  double dot = 0, mx = -1e300;
  for (int i = 0; i < n; i++) dot += x[i] * y[i] * x[i];
  for (int i = 0; i < n; i++) mx = fmax(mx, x[i] * 0.5 + y[i]);
  double prod = 1;
  for (int i = 0; i < n; i++) prod *= 1.0 + 0.01 * x[i];
  return dot + mx + prod;
}

static double y_g[32];
static double fx(const double *x, int n) { return f(x, y_g, n); }

int main(void) {
  double x[32], v[32], dx[32];
  for (int i = 0; i < 32; i++) {
    x[i] = sin(0.7 * i) + 0.1 * i;
    y_g[i] = cos(0.3 * i);
    v[i] = (i % 5) - 2.0;
    dx[i] = v[i];
  }
  double dy[32] = {0};
  check_close("df.v", __enzyme_fwddiff((void *)f, x, dx, y_g, dy, 32), fd_dir(fx, x, v, 32), 1e-6);
  return check_finish();
}
