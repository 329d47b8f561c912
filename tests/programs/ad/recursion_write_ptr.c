/* Recursion through pointers that are written: a running sum written into an output array on
 * the way back up, an accumulator updated through a pointer at every level, an in-place
 * butterfly that recurses on both halves of its array before combining them in place, and a
 * float in-place reversal with scaling that recurses on a shrinking window. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
/* Floats cannot go through `...`: a prototype with the float parameter. */
extern void __enzyme_autodiff_flip(void *, int, float *, float *, int, int, int, int, int, float);
enum { N = 8 };

__attribute__((noinline)) double prefix(const double *a, double *out, int n) {
  if (n == 0) return 0.0;
  double s = prefix(a, out, n - 1) + a[n - 1] * a[n - 1];
  out[n - 1] = s;
  return s;
}

__attribute__((noinline)) void visit(const double *a, int i, int n, double *acc) {
  if (i >= n) return;
  *acc = *acc * cos(a[i]) + a[i];
  visit(a, i + 1, n, acc);
  *acc += 0.1 * a[i] * *acc;
}

__attribute__((noinline)) void butterfly(double *x, int n) {
  if (n < 2) return;
  int h = n / 2;
  butterfly(x, h);
  butterfly(x + h, h);
  for (int i = 0; i < h; i++) {
    double a = x[i], b = x[i + h];
    x[i] = a + 0.5 * b * b;
    x[i + h] = a * b - sin(b);
  }
}

__attribute__((noinline)) void flip(float *x, int lo, int hi, float s) {
  if (lo >= hi) {
    if (lo == hi) x[lo] *= s;
    return;
  }
  float t = x[lo];
  x[lo] = x[hi] * s;
  x[hi] = t * s * t;
  flip(x, lo + 1, hi - 1, s * 1.5f);
}

static double f(const double *a, double *out, double *x, int n) {
  double acc = 0.5;
  double total = prefix(a, out, n);
  visit(a, 0, n, &acc);
  butterfly(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * out[i];
  return s + total * acc;
}

static double A[N] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.7, 0.1, -0.8};
static double X0[N] = {1.0, 0.5, -0.25, 0.75, 2.0, -1.0, 0.3, 0.6};
static double OUTSEED[N];
static double f_ref(const double *a, const double *x0) {
  double out[N], x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  double r = f(a, out, x, N);
  for (int i = 0; i < N; i++) r += OUTSEED[i] * out[i];
  return r;
}
static double f_a(const double *a) { return f_ref(a, X0); }
static double f_x(const double *x) { return f_ref(A, x); }

static double Y0[N], YSEED[N];
static double flip_ref(const double *y0) {
  double y[N], s = 0.8;
  for (int i = 0; i < N; i++) y[i] = y0[i];
  for (int lo = 0, hi = N - 1; lo <= hi; lo++, hi--, s *= 1.5) {
    if (lo == hi) { y[lo] *= s; break; }
    double t = y[lo];
    y[lo] = y[hi] * s;
    y[hi] = t * s * t;
  }
  double r = 0;
  for (int i = 0; i < N; i++) r += YSEED[i] * y[i];
  return r;
}

int main(void) {
  double out[N], dout[N], x[N], dx[N] = {0}, da[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = X0[i];
    OUTSEED[i] = 0.25 * i - 0.5;
    dout[i] = OUTSEED[i];
  }
  __enzyme_autodiff((void *)f, enzyme_dup, A, da, enzyme_dup, out, dout, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("df/da", da[i], fd_array(f_a, A, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X0, i), 1e-6);
  check_zero("dout", dout, N);

  float y[N], dy[N];
  for (int i = 0; i < N; i++) {
    Y0[i] = y[i] = 0.5f - 0.2f * i;
    YSEED[i] = 1.0 + (i % 3);
    dy[i] = (float)YSEED[i];
  }
  __enzyme_autodiff_flip((void *)flip, enzyme_dup, y, dy, enzyme_const, 0, enzyme_const, N - 1, enzyme_const, 0.8f);
  for (int i = 0; i < N; i++) check_close("flip d/dy", dy[i], fd_array(flip_ref, Y0, i), 1e-5);
  return check_finish();
}
