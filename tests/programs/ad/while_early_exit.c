/* A while loop with a data-dependent exit and an early return: iterations unknown beforehand. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x) {
  double y = x;
  int k = 0;
  while (y < 100.0) {
    y = y * 1.7 + sin(y);
    if (++k > 50) return y * 0.5;
  }
  return y / (1.0 + x * x);
}

int main(void) {
  for (double x = 0.3; x < 3.0; x += 0.9) {
    double d = __enzyme_autodiff((void *)f, x);
    check_close("df/dx", d, fd1(f, x), 1e-5);
  }
  return check_finish();
}
