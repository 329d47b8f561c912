/* Conditional expressions that LLVM turns into selects and phis (clamps, abs, sign-dependent
 * formulas), with both operands of a select active. */
#include "check.h"

typedef struct { double dx, dy; } grad2;
extern grad2 __enzyme_autodiff(void *, ...);

static double f(double x, double y) {
  double a = x > y ? x * y : y - x;
  double b = a < 0 ? -a : a;
  double c = (x * x > 1.0) ? sin(x) : cos(y);
  double lo = 0.5 * y, hi = 2.0 + x;
  double cl = b < lo ? lo : (b > hi ? hi : b);
  return cl * c + (y > 0 ? a : 2 * a);
}
static double Y, X;
static double fx(double x) { return f(x, Y); }
static double fy(double y) { return f(X, y); }

int main(void) {
  static const double pts[][2] = {{0.3, 0.8}, {1.4, -0.6}, {-1.3, 0.4}, {2.2, 1.9}, {-0.7, -2.3}, {0.9, 3.1}};
  for (int k = 0; k < 6; k++) {
    X = pts[k][0];
    Y = pts[k][1];
    grad2 g = __enzyme_autodiff((void *)f, X, Y);
    check_close("df/dx", g.dx, fd1(fx, X), 1e-6);
    check_close("df/dy", g.dy, fd1(fy, Y), 1e-6);
  }
  return check_finish();
}
