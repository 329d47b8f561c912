/* Several active scalar arguments: two doubles come back in registers, three and five through
 * a hidden sret pointer, in argument order (const and integer arguments in between skipped). */
#include "check.h"

typedef struct { double a, b; } d2;
typedef struct { double a, b, c; } d3;
typedef struct { double a, b, c, d, e; } d5;
extern d2 __enzyme_autodiff_d2(void *, ...);
extern d3 __enzyme_autodiff_d3(void *, ...);
extern d5 __enzyme_autodiff_d5(void *, ...);

static double f2(double x, int n, double y) { return pow(x, n) * y + sin(x * y); }
static double f3(double x, double y, double z) { return x * y * z + exp(x - z) + y * y; }
static double f5(double a, double c0, int k, double b, double c, double d, double e) {
  return a * b + c * d * e + k * (a - e) * (a - e) + c0 * log(1 + b * b) + sqrt(c * c + d * d);
}

int main(void) {
  double x = 0.7, y = 1.3, z = -0.4;
  d2 g2 = __enzyme_autodiff_d2((void *)f2, x, 3, y);
  check_close("f2/dx", g2.a, 3 * x * x * y + cos(x * y) * y, 1e-12);
  check_close("f2/dy", g2.b, x * x * x + cos(x * y) * x, 1e-12);
  d3 g3 = __enzyme_autodiff_d3((void *)f3, x, y, z);
  check_close("f3/dx", g3.a, y * z + exp(x - z), 1e-12);
  check_close("f3/dy", g3.b, x * z + 2 * y, 1e-12);
  check_close("f3/dz", g3.c, x * y - exp(x - z), 1e-12);
  double a = 0.5, c0 = 2.0, b = -1.1, c = 0.8, d = 1.7, e = 0.9;
  int k = 2;
  d5 g5 = __enzyme_autodiff_d5((void *)f5, a, enzyme_const, c0, k, b, c, d, e);
  double r = sqrt(c * c + d * d);
  check_close("f5/da", g5.a, b + 2 * k * (a - e), 1e-12);
  check_close("f5/db", g5.b, a + c0 * 2 * b / (1 + b * b), 1e-12);
  check_close("f5/dc", g5.c, d * e + c / r, 1e-12);
  check_close("f5/dd", g5.d, c * e + d / r, 1e-12);
  check_close("f5/de", g5.e, c * d - 2 * k * (a - e), 1e-12);
  return check_finish();
}
