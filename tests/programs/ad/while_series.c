/* A while loop whose exit depends on the data: sum a series until the term is negligible
 * (the number of iterations depends on x, but is locally constant at the checked points). */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

/* exp(x) by its Taylor series, summed until the term drops below 1e-17 of the sum. */
static double series_exp(double x) {
  double term = 1.0, sum = 1.0;
  int k = 1;
  while (fabs(term) > 1e-17 * fabs(sum)) {
    term *= x / k;
    sum += term;
    k++;
  }
  return sum;
}

/* atanh-like series with a do-while loop. */
static double series_log(double x) {
  double y = (x - 1) / (x + 1), y2 = y * y, p = y, s = 0;
  int k = 1;
  do {
    s += p / k;
    p *= y2;
    k += 2;
  } while (fabs(p) > 1e-18);
  return 2 * s;
}

int main(void) {
  for (double x = -2.3; x < 3.0; x += 0.9) {
    double d = __enzyme_autodiff((void *)series_exp, x);
    check_close("d exp/dx", d, exp(x), 1e-9);
  }
  for (double x = 0.4; x < 5.0; x += 1.1) {
    double d = __enzyme_autodiff((void *)series_log, x);
    check_close("d log/dx", d, 1.0 / x, 1e-9);
  }
  return check_finish();
}
