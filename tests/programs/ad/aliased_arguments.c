/* The same array passed as two arguments (with the same shadow twice), so that stores through
 * one are seen by loads through the other: an in-place axpy x = x + a*y with y == x. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 8 };

static double f(double *x, const double *y, double a, int n) {
  for (int i = 0; i < n; i++) x[i] = x[i] + a * y[i] * y[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

static double A = 0.3;
static double faliased(const double *x0) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  return f(x, x, A, N);
}
static double X0[N];
static double fa(double a) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i];
  return f(x, x, a, N);
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = X0[i] = 0.2 * i - 0.5;
  double da = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, x, dx, A, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("df/dx (aliased)", dx[i], fd_array(faliased, X0, i), 1e-6);
  check_close("df/da", da, fd1(fa, A), 1e-6);
  return check_finish();
}
