/* Calls that are not inlined: a scalar helper called in a loop, a helper writing an output
 * array through a pointer, and a helper reading a duplicated array.  Each gets an augmented
 * forward function and a reverse function. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static double scale_sin(double x, double y) { return sin(x) * y; }

__attribute__((noinline)) static void squares(const double *a, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] * a[i];
}

__attribute__((noinline)) static void rhs(double x, double v, double *dx, double *dv) {
  *dx = v;
  *dv = -x * x;
}

static double f(double x, const double *a, int n) {
  double out[8], s = 0, p, q;
  squares(a, out, n);
  for (int i = 0; i < n; i++) s += scale_sin(x, out[i]);
  rhs(x, 2.0 * x, &p, &q);
  return s + p * q;
}

static double A[5] = {1.0, 2.0, 3.0, 0.5, -0.25};
static double fx(double x) { return f(x, A, 5); }
static double fa(const double *a) { return f(0.7, a, 5); }

int main(void) {
  double da[5] = {0};
  double dx = __enzyme_autodiff((void *)f, 0.7, enzyme_dup, A, da, enzyme_const, 5);
  check_close("df/dx", dx, fd1(fx, 0.7), 1e-6);
  for (int i = 0; i < 5; i++) check_close("df/da", da[i], fd_array(fa, A, i), 1e-6);
  return check_finish();
}
