/* Loops whose trip count depends on active data: n = floor(x * 7) steps of a recurrence, and
 * a fixed-step integration until time reaches x (the count is piecewise constant in x). */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x) {
  int n = (int)(x * 7.0);
  double y = x;
  for (int i = 0; i < n; i++) y = 0.5 * y + sin(y + 0.1 * i);
  return y * x;
}

static double g(double x) {
  double t = 0, v = x, dt = 0.05;
  while (t < x) {
    v += dt * (-0.3 * v + cos(t) * x);
    t += dt;
  }
  return v;
}

int main(void) {
  /* x*7 and x/0.05 stay away from integers at these points. */
  static const double xs[] = {0.23, 0.61, 1.03, 1.77, 2.49};
  for (int k = 0; k < 5; k++) {
    check_close("df/dx", __enzyme_autodiff((void *)f, xs[k]), fd1(f, xs[k]), 1e-6);
    check_close("dg/dx", __enzyme_autodiff((void *)g, xs[k]), fd1(g, xs[k]), 1e-6);
  }
  return check_finish();
}
