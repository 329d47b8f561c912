/* Direct recursion: polynomial evaluation by recursive Horner (derivatives for the coefficients
 * and the point), a sum over an array split in halves (double, and float with long bounds), a
 * Chebyshev polynomial by its three-term recurrence (two recursive calls per level), and a
 * tail-recursive accumulator that LLVM turns into a loop at -O2. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 9 };

__attribute__((noinline)) double horner(const double *c, int n, double x) {
  if (n == 0) return 0.0;
  return c[0] + x * horner(c + 1, n - 1, x);
}

__attribute__((noinline)) double halves(const double *a, int lo, int hi) {
  if (hi - lo == 1) return a[lo] * sin(a[lo]);
  if (hi - lo == 2) return a[lo] * a[lo + 1];
  int mid = lo + (hi - lo) / 2;
  double l = halves(a, lo, mid), r = halves(a, mid, hi);
  return l + r + 0.1 * l * r;
}

__attribute__((noinline)) float halves_f(const float *a, long lo, long hi) {
  if (hi - lo <= 1) return a[lo] * a[lo];
  long mid = (lo + hi) / 2;
  return halves_f(a, lo, mid) + halves_f(a, mid, hi);
}
static float norm_f(const float *a, long n) { return sqrtf(halves_f(a, 0, n)); }

__attribute__((noinline)) double cheb(int n, double x) {
  if (n == 0) return 1.0;
  if (n == 1) return x;
  return 2.0 * x * cheb(n - 1, x) - cheb(n - 2, x);
}

__attribute__((noinline)) double tail(const double *a, int n, double acc) {
  if (n == 0) return acc;
  return tail(a + 1, n - 1, acc * 0.9 + a[0] * a[0]);
}

static double f(const double *c, double x) {
  return horner(c, N, x) + halves(c, 0, N) * cheb(6, x) + tail(c, N, x);
}

static double Cf[N] = {0.5, -1.0, 0.25, 2.0, -0.5, 1.5, 0.75, -0.3, 0.1};
static double X = 0.62;
static double f_c(const double *c) { return f(c, X); }
static double f_x(double x) { return f(Cf, x); }
static double cheb6(double x) { return cheb(6, x); }

int main(void) {
  double dc[N] = {0};
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, Cf, dc, X);
  check_close("df/dx", dx, fd1(f_x, X), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dc", dc[i], fd_array(f_c, Cf, i), 1e-6);

  /* T6'(x) = 6 U5(x); T6(cos t) = cos 6t, so T6'(x) = 6 sin 6t / sin t. */
  double t = acos(X);
  check_close("cheb d/dx", __enzyme_autodiff((void *)cheb, enzyme_const, 6, X), 6 * sin(6 * t) / sin(t), 1e-9);
  check_close("cheb d/dx fd", __enzyme_autodiff((void *)cheb, enzyme_const, 6, X), fd1(cheb6, X), 1e-6);

  float a[N], da[N] = {0};
  double n2 = 0;
  for (int i = 0; i < N; i++) {
    a[i] = 0.3f * i - 1.0f;
    n2 += (double)a[i] * a[i];
  }
  __enzyme_autodiff_v((void *)norm_f, enzyme_dup, a, da, enzyme_const, (long)N);
  for (int i = 0; i < N; i++) check_close("norm_f d/da", da[i], a[i] / sqrt(n2), 1e-6);
  return check_finish();
}
