/* The extended Rosenbrock function and a sum of squares, vectorised with
 * `#pragma clang loop vectorize(enable) interleave(enable)` (which lets the vectoriser
 * reassociate this reduction without -ffast-math). */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 100 };

static double rosen(const double *x, int n) {
  double s = 0;
#pragma clang loop vectorize(enable) interleave(enable)
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.8 + 0.3 * sin(1.3 * i);
  __enzyme_autodiff((void *)rosen, x, dx, N);
  for (int i = 0; i < N; i++) {
    double g = 0;
    if (i > 0) g += 200.0 * (x[i] - x[i - 1] * x[i - 1]);
    if (i < N - 1) g += -400.0 * x[i] * (x[i + 1] - x[i] * x[i]) - 2.0 * (1.0 - x[i]);
    check_close("drosen/dx", dx[i], g, 1e-10);
  }
  return check_finish();
}
