/* Several return statements on different paths, with nested if/else and an active return value
 * computed differently on each path. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x, double y) {
  if (x < -1.0) return x * y * y;
  double t = x * x + y;
  if (t > 4.0) {
    if (y < 0) return sqrt(t) - y;
    return log(t) * x;
  }
  if (y > 1.5) return exp(0.5 * x) / y;
  double u = t * t - x;
  if (u < 0.1) return u * 10.0;
  return u / (1.0 + y * y);
}

static double Y;
static double fx(double x) { return f(x, Y); }

int main(void) {
  static const double pts[][2] = {{-1.5, 0.4}, {2.3, -0.7}, {2.4, 1.1}, {0.4, 1.8}, {0.2, 0.1}, {0.9, 0.6}, {-0.3, 0.5}};
  for (int k = 0; k < 7; k++) {
    Y = pts[k][1];
    double d = __enzyme_autodiff((void *)f, pts[k][0], enzyme_const, Y);
    check_close("df/dx", d, fd1(fx, pts[k][0]), 1e-6);
  }
  return check_finish();
}
