/* Vector mode on scalars: enzyme_width 2, each double followed by its two tangents; the two
 * tangents of the result come back as a struct of two doubles (in registers). */
#include "fwd.h"

typedef struct {
  double d[2];
} D2;
extern D2 __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return sin(x * y) + x * exp(-y) + pow(x, 3.0) / (1 + y * y); }

static double y_g, x_g;
static double fx(double x) { return f(x, y_g); }
static double fy(double y) { return f(x_g, y); }

int main(void) {
  double x = x_g = 0.6, y = y_g = 1.4;
  D2 g = __enzyme_fwddiff((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  check_close("df/dx", g.d[0], fd1(fx, x), 1e-6);
  check_close("df/dy", g.d[1], fd1(fy, y), 1e-6);
  /* the same directions one at a time agree to rounding */
  extern double __enzyme_fwddiff1(void *, ...) __asm__("__enzyme_fwddiff");
  check_close("width 1 vs 2", g.d[1], __enzyme_fwddiff1((void *)f, x, 0.0, y, 1.0), 1e-14);
  return check_finish();
}
