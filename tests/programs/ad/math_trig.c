/* sin, cos, tan, asin, acos, atan, atan2 in double precision against exact derivatives. */
#include "check.h"

typedef struct { double dy, dx; } grad2;
extern double __enzyme_autodiff(void *, ...);
extern grad2 __enzyme_autodiff2(void *, ...);

static double f_sin(double x) { return sin(x); }
static double f_cos(double x) { return cos(x); }
static double f_tan(double x) { return tan(x); }
static double f_asin(double x) { return asin(x); }
static double f_acos(double x) { return acos(x); }
static double f_atan(double x) { return atan(x); }
static double f_atan2(double y, double x) { return atan2(y, x); }
static double all(double x) { return sin(x) * cos(2 * x) + tan(0.5 * x) - asin(0.4 * x) * acos(0.3 * x) + atan(x * x); }

int main(void) {
  static const double xs[] = {-0.8, 0.2, 0.9};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    check_close("sin'", __enzyme_autodiff((void *)f_sin, x), cos(x), 1e-12);
    check_close("cos'", __enzyme_autodiff((void *)f_cos, x), -sin(x), 1e-12);
    check_close("tan'", __enzyme_autodiff((void *)f_tan, x), 1 / (cos(x) * cos(x)), 1e-12);
    check_close("asin'", __enzyme_autodiff((void *)f_asin, x), 1 / sqrt(1 - x * x), 1e-12);
    check_close("acos'", __enzyme_autodiff((void *)f_acos, x), -1 / sqrt(1 - x * x), 1e-12);
    check_close("atan'", __enzyme_autodiff((void *)f_atan, x), 1 / (1 + x * x), 1e-12);
    double y = 0.7 - x;
    grad2 g = __enzyme_autodiff2((void *)f_atan2, y, x);
    check_close("atan2/dy", g.dy, x / (x * x + y * y), 1e-12);
    check_close("atan2/dx", g.dx, -y / (x * x + y * y), 1e-12);
    check_close("all'", __enzyme_autodiff((void *)all, x), fd1(all, x), 1e-6);
  }
  return check_finish();
}
