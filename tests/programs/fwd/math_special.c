/* Forward mode of lgamma, tgamma (digamma, exact at 1 and 1/2, differences elsewhere, negative
 * non-integers included), remainder in both arguments, fdim, nextafter, logb, and GNU's sincos
 * (results written through pointers). */
#define _GNU_SOURCE
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

static double lg(double x) { return lgamma(x); }
static double f(double x) {
  return tgamma(x + 0.2) * remainder(9.0 * x, x + 0.3) + fdim(x, 0.8) - fdim(0.5, x) * 3.0 + nextafter(x, -5.0) * x +
         logb(x * 64.0) * x + lgamma(2.0 - x * x);
}

static double rotate(const double *x, int n) {
  double s, c, sa[4], ca[4], acc = 0;
  sincos(x[0] * x[1], &s, &c);
  for (int i = 0; i < n; i++) sincos(x[i] * c, &sa[i], &ca[i]);
  for (int i = 0; i < n; i++) acc += sa[i] * ca[(i + 1) % n] + s;
  return acc;
}

int main(void) {
  const double euler = 0.57721566490153286;
  check_close("lgamma'(1)", __enzyme_fwddiff((void *)lg, 1.0, 1.0), -euler, 1e-13);
  check_close("lgamma'(1/2)", __enzyme_fwddiff((void *)lg, 0.5, 1.0), -euler - 2 * log(2.0), 1e-13);
  double xs[] = {0.21, 0.45, 0.93, 1.37, -0.62, -2.3};
  for (int i = 0; i < 6; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
  double r[4] = {0.4, -1.1, 0.7, 0.2}, v[4] = {1.0, 0.5, -0.25, 2.0};
  check_close("sincos", __enzyme_fwddiff((void *)rotate, r, v, 4), fd_dir(rotate, r, v, 4), 1e-6);
  return check_finish();
}
