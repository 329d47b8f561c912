/* asinh, acosh and atanh (double and float): each against its exact derivative, and a loop of
 * them over an array (vectorised at -O3) against finite differences. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern float __enzyme_autodiff_f(void *, float);
int enzyme_dup, enzyme_const;

static double f_asinh(double x) { return asinh(x); }
static double f_acosh(double x) { return acosh(x); }
static double f_atanh(double x) { return atanh(x); }
static float f_atanhf(float x) { return atanhf(x); }
static double mix(double x) { return asinh(x * x) * acosh(1.5 + x) - atanh(0.4 * x); }

static double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += asinh(x[i]) + atanh(0.5 * x[i]) * acosh(2.0 + x[i]);
  return s;
}

int main(void) {
  static const double xs[] = {0.3, 0.7, -0.45};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    check_close("asinh'", __enzyme_autodiff((void *)f_asinh, x), 1 / sqrt(x * x + 1), 1e-12);
    check_close("acosh'", __enzyme_autodiff((void *)f_acosh, 1.5 + x), 1 / sqrt((1.5 + x) * (1.5 + x) - 1), 1e-12);
    check_close("atanh'", __enzyme_autodiff((void *)f_atanh, x), 1 / (1 - x * x), 1e-12);
    check_close("atanhf'", __enzyme_autodiff_f((void *)f_atanhf, (float)x), 1 / (1 - (float)x * (float)x), 1e-5);
    check_close("mix'", __enzyme_autodiff((void *)mix, x), fd1(mix, x), 1e-6);
  }
  double a[11], da[11] = {0};
  for (int i = 0; i < 11; i++) a[i] = 0.13 * i - 0.6;
  __enzyme_autodiff((void *)sum, enzyme_dup, a, da, enzyme_const, 11);
  for (int i = 0; i < 11; i++) {
    double exact = 1 / sqrt(a[i] * a[i] + 1) + 0.5 / (1 - 0.25 * a[i] * a[i]) * acosh(2.0 + a[i]) +
                   atanh(0.5 * a[i]) / sqrt((2.0 + a[i]) * (2.0 + a[i]) - 1);
    check_close("sum'", da[i], exact, 1e-10);
  }
  return check_finish();
}
