/* exp, exp2, expm1, log, log2, log10, log1p in double precision, each against its exact
 * derivative, and all of them in one expression against finite differences. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f_exp(double x) { return exp(x); }
static double f_exp2(double x) { return exp2(x); }
static double f_expm1(double x) { return expm1(x); }
static double f_log(double x) { return log(x); }
static double f_log2(double x) { return log2(x); }
static double f_log10(double x) { return log10(x); }
static double f_log1p(double x) { return log1p(x); }
static double all(double x) {
  return exp(0.3 * x) * log(x) + exp2(x) / log2(x + 2.0) - expm1(-x) * log10(x) + log1p(x * x);
}

int main(void) {
  static const double xs[] = {0.3, 1.1, 2.7};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    check_close("exp'", __enzyme_autodiff((void *)f_exp, x), exp(x), 1e-12);
    check_close("exp2'", __enzyme_autodiff((void *)f_exp2, x), exp2(x) * log(2.0), 1e-12);
    check_close("expm1'", __enzyme_autodiff((void *)f_expm1, x), exp(x), 1e-12);
    check_close("log'", __enzyme_autodiff((void *)f_log, x), 1 / x, 1e-12);
    check_close("log2'", __enzyme_autodiff((void *)f_log2, x), 1 / (x * log(2.0)), 1e-12);
    check_close("log10'", __enzyme_autodiff((void *)f_log10, x), 1 / (x * log(10.0)), 1e-12);
    check_close("log1p'", __enzyme_autodiff((void *)f_log1p, x), 1 / (1 + x), 1e-12);
    check_close("all'", __enzyme_autodiff((void *)all, x), fd1(all, x), 1e-6);
  }
  return check_finish();
}
