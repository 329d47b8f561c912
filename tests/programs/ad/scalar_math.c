/* Scalar arithmetic and libm: sin, exp, log, pow, sqrt, division, several active arguments. */
#include "check.h"

typedef struct { double dx, dy; } grad2;
extern grad2 __enzyme_autodiff(void *, ...);

static double f(double x, double y) {
  return sin(x) * exp(y) + log(x * y) / sqrt(x + y) + pow(x, 2.5) * y - x / (y * y);
}
static double fx(double x) { return f(x, 1.7); }
static double fy(double y) { return f(0.8, y); }

int main(void) {
  grad2 g = __enzyme_autodiff((void *)f, 0.8, 1.7);
  check_close("df/dx", g.dx, fd1(fx, 0.8), 1e-6);
  check_close("df/dy", g.dy, fd1(fy, 1.7), 1e-6);
  return check_finish();
}
