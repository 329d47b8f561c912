/* Tangents of the trigonometric and hyperbolic functions. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x) {
  return sin(x) * cos(2 * x) + tan(x) + asin(0.5 * x) + acos(0.3 * x) + atan(x) + atan2(x, 1.5) + atan2(0.7, x) +
         sinh(x) + cosh(x) + tanh(x);
}

int main(void) {
  double xs[3] = {-0.9, 0.2, 1.3};
  for (int i = 0; i < 3; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
  return check_finish();
}
