/* Tangents of exp, log and pow and their relatives. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double x) {
  return exp(x) + log(x) + log1p(x) + expm1(0.5 * x) + exp2(x) + log2(x) + log10(x) + pow(x, 2.5) + pow(1.7, x) + pow(x, x);
}

int main(void) {
  double xs[3] = {0.3, 1.1, 2.7};
  for (int i = 0; i < 3; i++) check_close("f'", __enzyme_fwddiff((void *)f, xs[i], 1.0), fd1(f, xs[i]), 1e-6);
  return check_finish();
}
