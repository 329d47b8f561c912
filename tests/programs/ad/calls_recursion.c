/* Recursion: a power by squaring (direct recursion on a scalar), two mutually recursive sums
 * over a duplicated array, and a divide-and-conquer product. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double power(double x, int n) {
  if (n == 0) return 1.0;
  double h = power(x, n / 2);
  return (n % 2) ? h * h * x : h * h;
}

double odd_sum(const double *a, int n);
__attribute__((noinline)) double even_sum(const double *a, int n) {
  return n <= 0 ? 0.0 : sin(a[n - 1]) + odd_sum(a, n - 1);
}
__attribute__((noinline)) double odd_sum(const double *a, int n) {
  return n <= 0 ? 0.0 : a[n - 1] * a[n - 1] + even_sum(a, n - 1);
}

__attribute__((noinline)) double tree_product(const double *a, int lo, int hi) {
  if (hi - lo == 1) return exp(a[lo]);
  int mid = (lo + hi) / 2;
  return tree_product(a, lo, mid) * tree_product(a, mid, hi);
}

static double f(double x, const double *a) { return power(x, 13) + even_sum(a, 6) + tree_product(a, 0, 6); }

static double A[6] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.6};
static double fx(double x) { return f(x, A); }
static double fa(const double *a) { return f(1.1, a); }

int main(void) {
  double da[6] = {0};
  double dx = __enzyme_autodiff((void *)f, 1.1, enzyme_dup, A, da);
  check_close("df/dx", dx, fd1(fx, 1.1), 1e-6);
  for (int i = 0; i < 6; i++) check_close("df/da", da[i], fd_array(fa, A, i), 1e-6);
  return check_finish();
}
