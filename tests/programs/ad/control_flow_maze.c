/* Irregular but reducible control flow: a while(1) loop left by breaks from three places, a
 * switch inside a loop with fallthrough, a flag-controlled exit from two nested loops, a goto
 * forward out of a loop, and a four-deep loop nest. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x, int mode) {
  double y = x, acc = 0;
  int it = 0;
  while (1) {
    y = y * 0.8 + 0.3 * sin(y);
    if (y < 0.05) break;
    acc += y;
    if (acc > 3.0 + mode) break;
    if (++it > 40) break;
  }
  for (int i = 0; i < 12; i++) {
    switch ((i + mode) % 5) {
    case 0: acc += x * y; /* fallthrough */
    case 1: acc *= 0.9; break;
    case 2: acc -= sin(acc) * 0.1; break;
    case 3: if (acc > 2.0) { acc = sqrt(acc); break; } /* fallthrough */
    default: acc += 0.01 * x * i;
    }
  }
  int done = 0;
  for (int i = 0; i < 6 && !done; i++)
    for (int j = 0; j < 6; j++) {
      acc += 0.05 * x * (i - j);
      if (acc > 4.5) { done = 1; break; }
    }
  for (int i = 0; i < 10; i++) {
    acc = acc * 1.01 + 0.01 * y;
    if (acc * x > 6.0) goto out;
  }
  acc += 1.0;
out:
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 2; c++)
        for (int d = 0; d < 2 + a; d++) acc += 0.001 * (a + b + c + d) * x * acc;
  return acc;
}

static int MODE;
static double fm(double x) { return f(x, MODE); }

int main(void) {
  for (MODE = 0; MODE < 3; MODE++)
    for (double x = 0.4; x < 2.5; x += 0.7) check_close("df/dx", __enzyme_autodiff((void *)f, x, MODE), fd1(fm, x), 1e-6);
  return check_finish();
}
