// CFLAGS: -ffast-math
/* With -ffast-math clang emits llvm.* intrinsics (and fmuladd) for the math calls. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sqrt(x[i]) * exp(-x[i]) + sin(x[i]) * x[i] + pow(x[i], 3.0) + fabs(x[i] - 1.0);
  return s;
}

int main(void) {
  double x[6] = {0.3, 0.7, 1.2, 1.9, 2.4, 3.1}, v[6] = {1, -1, 0.5, 0.25, -2, 1}, dx[6];
  for (int i = 0; i < 6; i++) dx[i] = v[i];
  double got = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, 6);
  check_close("df.v", got, fd_dir(f, x, v, 6), 1e-6);
  return check_finish();
}
