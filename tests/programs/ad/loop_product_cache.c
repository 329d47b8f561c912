/* A running product over an array (each step's state must be cached for the reverse sweep)
 * and a running maximum chosen through a phi. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 50 };

static double f(const double *x, int n) {
  double p = 1.0, m = -1e300, s = 0;
  for (int i = 0; i < n; i++) {
    p = p * (1.0 + 0.1 * x[i]);
    if (x[i] * p > m) m = x[i] * p;
    s += p * m;
  }
  return s / n;
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.8 * sin(2.1 * i);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i += 3) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
