// CFLAGS: -ffast-math
/* A maximum over an array, vectorised into llvm.vector.reduce.fmax (fast-math): the derivative
 * goes to the element that is the maximum; also a minimum and a sum of clamped values. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 97 };

static double f(const double *x, int n) {
  double m = -1e308, lo = 1e308, s = 0;
  for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
  for (int i = 0; i < n; i++) lo = fmin(lo, x[i]);
  for (int i = 0; i < n; i++) s += fmin(fmax(x[i], -0.5), 0.5);
  return 3.0 * m - 2.0 * lo * lo + s;
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = sin(1.37 * i + 0.2) * (1.0 + 0.003 * i);
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
