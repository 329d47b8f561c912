/* Loads and stores through duplicated pointer arguments: an input array, a scratch array the
 * function writes and reads back, and a scalar passed by pointer. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 12 };

static double f(const double *x, double *work, double *scale, int n) {
  for (int i = 0; i < n; i++) work[i] = x[i] * *scale;
  for (int i = 1; i < n; i++) work[i] += 0.5 * work[i - 1] * work[i - 1];
  *scale = *scale * 2.0; /* overwritten: the adjoint of the old value must survive */
  double s = 0;
  for (int i = 0; i < n; i++) s += work[i] * *scale;
  return s;
}

static double X[N], SCALE = 0.7;
static double fx(const double *x) {
  double w[N], sc = SCALE;
  return f(x, w, &sc, N);
}
static double fs(double s) {
  double w[N];
  return f(X, w, &s, N);
}

int main(void) {
  double dx[N] = {0}, w[N], dw[N] = {0}, sc = SCALE, dsc = 0;
  for (int i = 0; i < N; i++) X[i] = 0.3 * sin(i + 1.0);
  __enzyme_autodiff((void *)f, X, dx, w, dw, &sc, &dsc, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, X, i), 1e-6);
  check_close("df/dscale", dsc, fd1(fs, SCALE), 1e-6);
  check_zero("dwork", dw, N);
  return check_finish();
}
