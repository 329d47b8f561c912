/* Calls to functions that are not inlined: their tangent functions are generated too, with the
 * activity of each call's arguments (a scalar helper, one writing through a pointer, one
 * returning a pointer into its argument). */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double sq(double x) { return x * x; }
__attribute__((noinline)) static double scaled_sin(double x, double k) { return k * sin(x); }
__attribute__((noinline)) static void axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}
__attribute__((noinline)) static double *middle(double *p, int n) { return p + n / 2; }
__attribute__((noinline)) static int count_positive(const double *p, int n) {
  int c = 0;
  for (int i = 0; i < n; i++) c += p[i] > 0;
  return c;
}

double f(const double *x, int n) {
  double y[8] = {0};
  axpy(sq(x[0]), x, y, n);
  axpy(scaled_sin(x[1], 2.0), x, y, n);
  double *m = middle(y, n);
  *m = sq(*m) + count_positive(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * scaled_sin(x[i], 0.5);
  return s;
}

int main(void) {
  double x[6] = {0.4, -0.3, 0.8, 1.1, -0.5, 0.2}, v[6] = {1, 0.5, -1, 0.25, 2, -0.75}, dx[6];
  for (int i = 0; i < 6; i++) dx[i] = v[i];
  check_close("df.v", __enzyme_fwddiff((void *)f, x, dx, 6), fd_dir(f, x, v, 6), 1e-6);
  return check_finish();
}
