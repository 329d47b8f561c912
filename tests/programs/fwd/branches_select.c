/* Control flow: if/else, a select, a switch and several returns. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x, int mode) {
  double y = x > 0.5 ? x * x : 2 * x;
  switch (mode) {
  case 0:
    return y * sin(x);
  case 1:
    y += exp(x);
    break;
  case 2:
    y *= cos(x);
    break;
  default:
    return -y;
  }
  if (y > 1.0) return log(y);
  return y * y * y;
}

static int mode_g;
static double fm(double x) { return f(x, mode_g); }

int main(void) {
  double xs[4] = {0.2, 0.45, 0.9, 1.7};
  for (int m = 0; m < 4; m++) {
    mode_g = m;
    for (int i = 0; i < 4; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0, m), fd1(fm, xs[i]), 1e-6);
  }
  return check_finish();
}
