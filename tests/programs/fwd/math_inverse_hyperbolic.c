/* Tangents of asinh, acosh and atanh, alone and combined, against finite differences; in
 * vector mode (width 2) too. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);
typedef struct { double d[2]; } pair;
extern pair __enzyme_fwddiff2(void *, ...) __asm__("__enzyme_fwddiff");

double f(double x) { return asinh(3 * x) + acosh(1.2 + x * x) * atanh(0.3 * x); }

int main(void) {
  double xs[3] = {0.3, -0.8, 1.1};
  for (int i = 0; i < 3; i++) {
    check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
    pair t = __enzyme_fwddiff2((void *)f, enzyme_width, 2, xs[i], 1.0, -2.0);
    check_close("f' (width 2, first)", t.d[0], fd1(f, xs[i]), 1e-6);
    check_close("f' (width 2, second)", t.d[1], -2.0 * fd1(f, xs[i]), 1e-6);
  }
  return check_finish();
}
