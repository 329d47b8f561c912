/* fabs, fmin, fmax, copysign, fma (double), and floor, ceil, round, trunc with zero derivative;
 * checked on both sides of each kink, away from it. */
#include "check.h"

typedef struct { double da, db; } grad2;
typedef struct { double da, db, dc; } grad3;
extern double __enzyme_autodiff(void *, ...);
extern grad2 __enzyme_autodiff2(void *, ...);
extern grad3 __enzyme_autodiff3(void *, ...);

static double f_fabs(double x) { return fabs(x) * x; }
static double f_fmin(double a, double b) { return fmin(a, b) * 3.0; }
static double f_fmax(double a, double b) { return fmax(a * a, b); }
static double f_copysign(double a, double b) { return copysign(a, b); }
static double f_fma(double a, double b, double c) { return fma(a, b, c); }
static double f_round(double x) { return floor(x) + ceil(2 * x) + round(x * x) + trunc(-x) + x * floor(x); }

int main(void) {
  static const double xs[] = {-1.3, -0.4, 0.6, 2.2};
  for (int k = 0; k < 4; k++) {
    double x = xs[k], y = 0.5 - 0.3 * k;
    check_close("fabs'", __enzyme_autodiff((void *)f_fabs, x), 2 * fabs(x), 1e-12);
    grad2 g = __enzyme_autodiff2((void *)f_fmin, x, y);
    check_close("fmin/da", g.da, x < y ? 3.0 : 0.0, 0);
    check_close("fmin/db", g.db, x < y ? 0.0 : 3.0, 0);
    g = __enzyme_autodiff2((void *)f_fmax, x, y);
    check_close("fmax/da", g.da, x * x > y ? 2 * x : 0.0, 1e-15);
    check_close("fmax/db", g.db, x * x > y ? 0.0 : 1.0, 0);
    g = __enzyme_autodiff2((void *)f_copysign, x, y);
    check_close("copysign/da", g.da, (x < 0) == (y < 0) ? 1.0 : -1.0, 0);
    check_close("copysign/db", g.db, 0.0, 0);
    grad3 h = __enzyme_autodiff3((void *)f_fma, x, y, 0.7);
    check_close("fma/da", h.da, y, 0);
    check_close("fma/db", h.db, x, 0);
    check_close("fma/dc", h.dc, 1.0, 0);
    check_close("rounding'", __enzyme_autodiff((void *)f_round, x), floor(x), 0);
  }
  return check_finish();
}
