// CFLAGS: -ffast-math
/* A product reduction (llvm.vector.reduce.fmul after vectorisation) and a geometric mean. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 41 };

static double f(const double *x, int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++) p *= x[i];
  double lp = 0;
  for (int i = 0; i < n; i++) lp += log(x[i]);
  return p + exp(lp / n);
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 1.0 + 0.05 * sin(1.1 * i);
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i += 4) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
