/* Integer code that only inspects the bits of active floats loses no derivative: signbit, a
 * bit-pattern comparison through memcpy, frexp-style exponent extraction used as a control
 * decision, and isnan/isinf tests. */
#include <stdint.h>
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static int exponent_of(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  return (int)((b >> 52) & 0x7ff) - 1023;
}

static double f(double x) {
  double y = signbit(x) ? -x * x : x * x * x;
  int e = exponent_of(y);                 /* integer view of active bits, used as a decision */
  double scale = e > 0 ? 0.5 : 2.0;
  if (isnan(y) || isinf(y)) return 0;
  return y * scale + sin(x);
}

int main(void) {
  static const double xs[] = {-2.7, -0.6, 0.3, 0.9, 1.6, 3.1};
  for (int k = 0; k < 6; k++) check_close("df/dx", __enzyme_autodiff((void *)f, xs[k]), fd1(f, xs[k]), 1e-6);
  return check_finish();
}
