/* sqrt, cbrt, pow (both arguments active), __builtin_powi and hypot in double precision. */
#include "check.h"

typedef struct { double da, db; } grad2;
extern double __enzyme_autodiff(void *, ...);
extern grad2 __enzyme_autodiff2(void *, ...);

static double f_sqrt(double x) { return sqrt(x); }
static double f_cbrt(double x) { return cbrt(x); }
static double f_pow(double a, double b) { return pow(a, b); }
static double f_powi(double x, int n) { return __builtin_powi(x, n); }
static double f_hypot(double a, double b) { return hypot(a, b); }
static double f_pow_const(double x) { return pow(x, 3.0) + pow(x, 0.5) + pow(2.0, x); }

int main(void) {
  static const double xs[] = {0.35, 1.3, 4.2};
  for (int k = 0; k < 3; k++) {
    double x = xs[k], y = 1.7 - 0.3 * k;
    check_close("sqrt'", __enzyme_autodiff((void *)f_sqrt, x), 0.5 / sqrt(x), 1e-12);
    check_close("cbrt'", __enzyme_autodiff((void *)f_cbrt, x), 1.0 / (3.0 * cbrt(x) * cbrt(x)), 1e-12);
    check_close("cbrt'(-x)", __enzyme_autodiff((void *)f_cbrt, -x), 1.0 / (3.0 * cbrt(x) * cbrt(x)), 1e-12);
    grad2 g = __enzyme_autodiff2((void *)f_pow, x, y);
    check_close("pow/da", g.da, y * pow(x, y - 1), 1e-12);
    check_close("pow/db", g.db, pow(x, y) * log(x), 1e-12);
    for (int n = -3; n <= 4; n++)
      check_close("powi'", __enzyme_autodiff((void *)f_powi, x, n), n * __builtin_powi(x, n - 1), 1e-12);
    g = __enzyme_autodiff2((void *)f_hypot, x, y);
    check_close("hypot/da", g.da, x / hypot(x, y), 1e-12);
    check_close("hypot/db", g.db, y / hypot(x, y), 1e-12);
    check_close("pow const'", __enzyme_autodiff((void *)f_pow_const, x), 3 * x * x + 0.5 / sqrt(x) + pow(2.0, x) * log(2.0), 1e-12);
  }
  return check_finish();
}
