/* Forward mode through libm functions with integer parts: frexp and modf (a part written
 * through a pointer), ldexp/scalbn/scalbln, and integer results (lround, lrint, llround, llrint,
 * ilogb) that carry no tangent. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x) {
  int e;
  double m = frexp(x * 3, &e);
  double ip;
  double fr = modf(x * 2.5, &ip);
  double y = x; /* overwritten by modf's integral part: its tangent becomes zero */
  double g = modf(y * 1.5, &y);
  long r = lround(x * 3) + lrint(x) + ilogb(x * 10);
  long long q = llround(x * 2) + llrint(x);
  return m * e + fr * fr + ip * x + g * y + ldexp(x * x, 2) + scalbn(sin(x), -1) + scalbln(x, 3) +
         x * (double)(r + q);
}

int main(void) {
  double xs[3] = {0.37, 1.45, 2.2};
  for (int i = 0; i < 3; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
  return check_finish();
}
