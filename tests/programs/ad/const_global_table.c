/* Constant global tables (inactive): polynomial coefficients and quadrature nodes/weights read
 * from const arrays, including a table indexed by a data-dependent integer. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static const double COEF[6] = {1.0, -0.5, 0.25, 0.125, -0.0625, 0.03125};
static const double NODES[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640};
static const double WEIGHTS[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665, 0.2369268850561891};
static const double SLOPES[4] = {0.5, 1.5, -1.0, 2.0};

static double f(double a) {
  /* Gauss-Legendre integral over [0, a] of exp(-t^2) * poly(t). */
  double s = 0;
  for (int i = 0; i < 5; i++) {
    double t = 0.5 * a * (NODES[i] + 1.0);
    double p = 0;
    for (int k = 5; k >= 0; k--) p = p * t + COEF[k];
    s += WEIGHTS[i] * exp(-t * t) * p;
  }
  int seg = (int)(a * 2.0) & 3;
  return 0.5 * a * s + SLOPES[seg] * a;
}

int main(void) {
  static const double as[] = {0.3, 0.8, 1.2, 1.7};
  for (int k = 0; k < 4; k++) check_close("df/da", __enzyme_autodiff((void *)f, as[k]), fd1(f, as[k]), 1e-6);
  return check_finish();
}
