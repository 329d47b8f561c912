/* Recursive functions: the tangent function calls itself. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double power(double x, int n) {
  if (n == 0) return 1.0;
  double h = power(x, n / 2);
  return n % 2 ? h * h * x : h * h;
}

__attribute__((noinline)) double tree_sum(const double *x, int lo, int hi) {
  if (hi - lo == 1) return sin(x[lo]);
  int mid = (lo + hi) / 2;
  return tree_sum(x, lo, mid) * 1.5 + tree_sum(x, mid, hi);
}

double f(const double *x, int n) { return power(x[0], 7) + tree_sum(x, 0, n); }

static double p7(double x) { return power(x, 7); }

int main(void) {
  check_close("d power", __enzyme_fwddiff((void *)power, 1.3, 1.0, 7), fd1(p7, 1.3), 1e-6);
  check_close("d power exact", __enzyme_fwddiff((void *)power, 1.3, 1.0, 7), 7 * pow(1.3, 6), 1e-12);
  double x[7] = {0.9, 0.1, 0.2, -0.3, 0.4, 0.5, 0.6}, v[7] = {1, -1, 2, 0.5, 1, 0, -2}, dx[7];
  for (int i = 0; i < 7; i++) dx[i] = v[i];
  check_close("df.v", __enzyme_fwddiff((void *)f, x, dx, 7), fd_dir(f, x, v, 7), 1e-6);
  return check_finish();
}
