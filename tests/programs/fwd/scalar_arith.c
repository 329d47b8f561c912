/* Forward mode on scalar arithmetic: unmarked doubles are duplicated (value, tangent), enzyme_dup
 * says the same, enzyme_const and integers have no tangent. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x, double y, int k) {
  double a = x * y - x / (y + 2.0) + k * x;
  double b = -a * a + 3.0 * y;
  return b / (1.0 + x * x) - y;
}

static double fx(double x) { return f(x, 0.8, 3); }
static double fy(double y) { return f(-0.4, y, 3); }

int main(void) {
  double x = -0.4, y = 0.8;
  check_close("df/dx", __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0, 3), fd1(fx, x), 1e-6);
  check_close("df/dy", __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.0, enzyme_dup, y, 1.0, 3), fd1(fy, y), 1e-6);
  check_close("df/dy const x", __enzyme_fwddiff((void *)f, enzyme_const, x, y, 1.0, enzyme_const, 3), fd1(fy, y), 1e-6);
  /* a combination of directions: linear in the tangents */
  check_close("df.(2,-3)", __enzyme_fwddiff((void *)f, x, 2.0, y, -3.0, 3), 2 * fd1(fx, x) - 3 * fd1(fy, y), 1e-6);
  return check_finish();
}
