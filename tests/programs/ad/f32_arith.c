/* Single-precision arithmetic (fadd, fsub, fmul, fdiv, fneg) with float arguments passed through
 * non-variadic prototypes of __enzyme_autodiff, checked against exact derivatives. */
#include "check.h"

typedef struct { float dx, dy; } fgrad2;
/* Any function whose name contains __enzyme_autodiff is an entry point. */
extern fgrad2 __enzyme_autodiff_xy(void *, float, float);
extern float __enzyme_autodiff_x(void *, float, int, float);
extern float __enzyme_autodiff_y(void *, int, float, float);

static float f(float x, float y) {
  float a = x * y - x / y;
  float b = -(a * a) + 3.0f * x;
  return b / (1.0f + y * y) - (-x);
}

static double dfdx(double x, double y) {
  double a = x * y - x / y, da = y - 1.0 / y;
  return (-2 * a * da + 3.0) / (1 + y * y) + 1.0;
}
static double dfdy(double x, double y) {
  double a = x * y - x / y, da = x + x / (y * y);
  double b = -(a * a) + 3.0 * x, db = -2 * a * da;
  return (db * (1 + y * y) - b * 2 * y) / ((1 + y * y) * (1 + y * y));
}

int main(void) {
  static const float xs[] = {0.7f, -1.3f, 2.1f};
  static const float ys[] = {1.2f, 0.8f, -1.7f};
  for (int k = 0; k < 3; k++) {
    float x = xs[k], y = ys[k];
    fgrad2 g = __enzyme_autodiff_xy((void *)f, x, y);
    check_close("df/dx", g.dx, dfdx(x, y), 1e-5);
    check_close("df/dy", g.dy, dfdy(x, y), 1e-5);
    check_close("df/dx (y const)", __enzyme_autodiff_x((void *)f, x, enzyme_const, y), dfdx(x, y), 1e-5);
    check_close("df/dy (x const)", __enzyme_autodiff_y((void *)f, enzyme_const, x, y), dfdy(x, y), 1e-5);
  }
  return check_finish();
}
