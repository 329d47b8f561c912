/* Callees mixing active and inactive results: an int index returned from active data
 * (argmax), a double returned with an int written through a pointer, an int index of the element
 * nearest a target (the caller reads the value), a long count of elements above a threshold used
 * as a weight, and a float callee returning an int flag while writing a float result. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 7 };

__attribute__((noinline)) int argmax(const double *a, int n) {
  int k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] > a[k]) k = i;
  return k;
}

__attribute__((noinline)) double reduce_range(double v, int *octave) {
  int e = 0;
  while (v > 2.0) { v *= 0.5; e++; }
  while (v < 1.0) { v *= 2.0; e--; }
  *octave = e;
  return v;
}

__attribute__((noinline)) int nearest(const double *a, int n, double target) {
  int k = 0;
  for (int i = 1; i < n; i++)
    if (fabs(a[i] - target) < fabs(a[k] - target)) k = i;
  return k;
}

__attribute__((noinline)) long count_above(const double *a, int n, double t) {
  long c = 0;
  for (int i = 0; i < n; i++) c += a[i] > t;
  return c;
}

static double f(const double *a, int n, double x) {
  int k = argmax(a, n), e;
  double m = reduce_range(x * a[k], &e);
  int j = nearest(a, n, x);
  long c = count_above(a, n, a[j]);
  return m * e + a[j] * a[j] * (double)c + a[(k + j) % n] * x;
}

__attribute__((noinline)) int safe_div_f(float a, float b, float *q) {
  if (fabsf(b) < 1e-3f) return 0; /* b is small here, never exactly zero */
  *q = a / b;
  return 1;
}
static float g(const float *v, int n) {
  float s = 0;
  int ok = 0;
  for (int i = 0; i + 1 < n; i++) {
    float q = 0;
    ok += safe_div_f(v[i], v[i + 1], &q);
    s += q * v[i];
  }
  return s * (float)ok;
}

static double A[N] = {0.5, 2.25, -1.0, 1.75, 0.3, 2.1, -0.4};
static double X = 1.6;
static double f_a(const double *a) { return f(a, N, X); }
static double f_x(double x) { return f(A, N, x); }

int main(void) {
  double da[N] = {0};
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, A, da, enzyme_const, N, X);
  check_close("df/dx", dx, fd1(f_x, X), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/da", da[i], fd_array(f_a, A, i), 1e-6);

  float v[N] = {1.5f, 0.5f, 1e-4f, 2.0f, -1.0f, 0.25f, 4.0f}, dv[N] = {0};
  __enzyme_autodiff_v((void *)g, enzyme_dup, v, dv, enzyme_const, N);
  /* Every pair but (1,2) divides (ok = 5); there q stays 0. */
  double want[N] = {0};
  for (int i = 0; i + 1 < N; i++) {
    if (i == 1) continue;
    double a = v[i], b = v[i + 1];
    want[i] += 5 * 2 * a / b;
    want[i + 1] += 5 * -a * a / (b * b);
  }
  for (int i = 0; i < N; i++) check_close("dg/dv", dv[i], want[i], 1e-6);
  return check_finish();
}
