/* Newton iterations to convergence: the root r(p) of x^3 + p x - 2 = 0, with a data-dependent
 * stopping test; the derivative of the converged root w.r.t. p equals -r / (3 r^2 + p) by the
 * implicit function theorem. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double root(double p) {
  double x = 1.0;
  for (int it = 0; it < 100; it++) {
    double fx = x * x * x + p * x - 2.0;
    double step = fx / (3 * x * x + p);
    x -= step;
    if (fabs(step) < 1e-15) break;
  }
  return x;
}

/* A Newton square root with a while loop, then a function of it. */
static double newton_sqrt(double a) {
  double x = a > 1 ? a : 1.0, prev = 0;
  while (fabs(x - prev) > 1e-14 * x) {
    prev = x;
    x = 0.5 * (x + a / x);
  }
  return x * a;
}

int main(void) {
  for (double p = 0.5; p < 4.0; p += 0.8) {
    double r = root(p);
    check_close("dr/dp", __enzyme_autodiff((void *)root, p), -r / (3 * r * r + p), 1e-9);
  }
  for (double a = 0.3; a < 9.0; a += 2.1)
    check_close("d(a sqrt a)/da", __enzyme_autodiff((void *)newton_sqrt, a), 1.5 * sqrt(a), 1e-9);
  return check_finish();
}
