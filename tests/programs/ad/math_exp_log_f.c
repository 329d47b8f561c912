/* expf, exp2f, expm1f, logf, log2f, log10f, log1pf: single precision, against exact
 * derivatives evaluated in double. */
#include "check.h"

extern float __enzyme_autodiff(void *, float);

static float f_exp(float x) { return expf(x); }
static float f_exp2(float x) { return exp2f(x); }
static float f_expm1(float x) { return expm1f(x); }
static float f_log(float x) { return logf(x); }
static float f_log2(float x) { return log2f(x); }
static float f_log10(float x) { return log10f(x); }
static float f_log1p(float x) { return log1pf(x); }
static float all(float x) { return expf(0.3f * x) * logf(x) + exp2f(x) / log2f(x + 2.0f) - expm1f(-x) * log10f(x) + log1pf(x * x); }

static double all_d(double x) {
  double a = exp(0.3 * x), b = log(x), c = exp2(x), d = log2(x + 2), e = expm1(-x), g = log10(x);
  double da = 0.3 * a, db = 1 / x, dc = c * log(2.0), dd = 1 / ((x + 2) * log(2.0)), de = -exp(-x), dg = 1 / (x * log(10.0));
  return da * b + a * db + (dc * d - c * dd) / (d * d) - (de * g + e * dg) + 2 * x / (1 + x * x);
}

int main(void) {
  static const float xs[] = {0.3f, 1.1f, 2.7f};
  for (int k = 0; k < 3; k++) {
    float x = xs[k];
    double xd = x;
    check_close("expf'", __enzyme_autodiff((void *)f_exp, x), exp(xd), 1e-6);
    check_close("exp2f'", __enzyme_autodiff((void *)f_exp2, x), exp2(xd) * log(2.0), 1e-6);
    check_close("expm1f'", __enzyme_autodiff((void *)f_expm1, x), exp(xd), 1e-6);
    check_close("logf'", __enzyme_autodiff((void *)f_log, x), 1 / xd, 1e-6);
    check_close("log2f'", __enzyme_autodiff((void *)f_log2, x), 1 / (xd * log(2.0)), 1e-6);
    check_close("log10f'", __enzyme_autodiff((void *)f_log10, x), 1 / (xd * log(10.0)), 1e-6);
    check_close("log1pf'", __enzyme_autodiff((void *)f_log1p, x), 1 / (1 + xd), 1e-6);
    check_close("all'", __enzyme_autodiff((void *)all, x), all_d(xd), 1e-5);
  }
  return check_finish();
}
