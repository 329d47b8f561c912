/* A loop with a constant trip count carrying a nonlinear recurrence (each step needs the
 * previous state in the reverse sweep), fully unrolled or not depending on the level. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x) {
  double y = x;
  for (int i = 0; i < 25; i++) y = y - 0.1 * sin(y) * y + 0.05 * x;
  return y * y;
}

static double g(double x) {
  double s = 0, p = 1;
  for (int i = 1; i <= 4; i++) {
    p *= x + i;
    s += p / i;
  }
  return s;
}

int main(void) {
  for (double x = -1.2; x < 2.0; x += 0.7) {
    check_close("df/dx", __enzyme_autodiff((void *)f, x), fd1(f, x), 1e-6);
    check_close("dg/dx", __enzyme_autodiff((void *)g, x), fd1(g, x), 1e-6);
  }
  return check_finish();
}
