/* A long recurrence (200000 steps) whose every state the reverse sweep needs: the caches grow
 * far past their initial size; also a nested loop whose inner trip count varies per outer
 * iteration and is not known before the loop runs. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x) {
  double y = x;
  for (int i = 0; i < 200000; i++) y = y + 1e-5 * sin(y * (1 + (i & 7)));
  return y;
}

static double g(double x) {
  double s = 0, y = x;
  for (int i = 1; i < 40; i++) {
    int m = (i * 7919) % 13; /* inner count varies, data independent */
    for (int j = 0; j < m; j++) y = y * 0.999 + 0.001 * cos(y + j);
    int k = 0;
    while (y * (k + 1) < 2.0 + 0.1 * i) k++; /* data-dependent inner count */
    s += y * k;
  }
  return s + y;
}

int main(void) {
  for (double x = 0.2; x < 2.0; x += 0.6) {
    check_close("df/dx", __enzyme_autodiff((void *)f, x), fd1(f, x), 1e-6);
    check_close("dg/dx", __enzyme_autodiff((void *)g, x), fd1(g, x), 1e-6);
  }
  return check_finish();
}
