/* sqrt, cbrt, fabs, hypot, fmod, copysign, fmin/fmax, erf/erfc and the rounding functions. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x) {
  return sqrt(x) + cbrt(x) + fabs(x - 1.0) + hypot(x, 2.0) + fmod(5.0 * x, 1.3) + copysign(x * x, -1.0) +
         fmin(x, 1.0) + fmax(x * x, 0.5) + erf(x) + erfc(0.5 * x) + floor(x) * x + round(3 * x);
}

int main(void) {
  double xs[3] = {0.37, 1.45, 2.2};
  for (int i = 0; i < 3; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
  return check_finish();
}
