/* Second derivatives of a function of scalars: forward mode over a function returning one
 * component of the gradient that __enzyme_autodiff returns as a struct. */
#include "fwd.h"

typedef struct {
  double dx, dy;
} Grad;
extern Grad __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static double f(double x, double y) { return sin(x) * exp(y) + x * x * y * y * y; }

double dfdx(double x, double y) { return __enzyme_autodiff((void *)f, x, y).dx; }
double dfdy(double x, double y) { return __enzyme_autodiff((void *)f, x, y).dy; }

int main(void) {
  double x = 0.7, y = -0.4;
  double fxx = -sin(x) * exp(y) + 2 * y * y * y, fxy = cos(x) * exp(y) + 6 * x * y * y,
         fyy = sin(x) * exp(y) + 6 * x * x * y;
  check_close("f_xx", __enzyme_fwddiff((void *)dfdx, x, 1.0, y, 0.0), fxx, 1e-12);
  check_close("f_xy", __enzyme_fwddiff((void *)dfdx, x, 0.0, y, 1.0), fxy, 1e-12);
  check_close("f_yx", __enzyme_fwddiff((void *)dfdy, x, 1.0, y, 0.0), fxy, 1e-12);
  check_close("f_yy", __enzyme_fwddiff((void *)dfdy, x, 0.0, y, 1.0), fyy, 1e-12);
  return check_finish();
}
