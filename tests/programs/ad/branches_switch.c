/* if/else, switch on an integer argument, select-style min/max, several return paths. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x, int mode) {
  double y;
  switch (mode) {
  case 0: y = x * x; break;
  case 1: y = sin(x) + x; break;
  case 5: y = exp(-x); break;
  default: y = 3.0 * x;
  }
  if (y > 1.0) y = log(y) + 1.0;
  else if (x < -0.5) return y * x;
  return fmax(y, 0.25 * x) + fmin(x, 0.1);
}

static int MODE;
static double fm(double x) { return f(x, MODE); }

int main(void) {
  for (MODE = 0; MODE < 7; MODE++) {
    for (double x = -1.13; x < 2.5; x += 0.61) {
      double d = __enzyme_autodiff((void *)f, x, enzyme_const, MODE);
      check_close("df/dx", d, fd1(fm, x), 1e-6);
    }
  }
  return check_finish();
}
