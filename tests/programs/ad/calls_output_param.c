/* Callees that return results through pointer arguments: two outputs written into the caller's
 * locals, an accumulator updated with +=, an in/out vector rotated in place, a callee that only
 * writes its output when an int flag says so (and returns the flag), and a float callee writing
 * the smallest and largest element through two pointers. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 5 };

__attribute__((noinline)) void polar(double r, double th, double *x, double *y) {
  *x = r * cos(th);
  *y = r * sin(th);
}

__attribute__((noinline)) void accumulate(double *acc, double v, double w) { *acc += w * v * v; }

__attribute__((noinline)) void rotate(double *v, double a) {
  double c = cos(a), s = sin(a);
  double x = v[0], y = v[1];
  v[0] = c * x - s * y;
  v[1] = s * x + c * y;
}

__attribute__((noinline)) int safe_log(double v, double *out) {
  if (v <= 0) return 0;
  *out = log(v);
  return 1;
}

static double f(double r, double th, const double *w, int n) {
  double x, y, acc = 0, v[2];
  polar(r, th, &x, &y);
  for (int i = 0; i < n; i++) accumulate(&acc, x + i * y, w[i]);
  v[0] = x;
  v[1] = y;
  for (int i = 0; i < 3; i++) rotate(v, 0.3 * th + 0.1 * i);
  double l = 0;
  int ok = safe_log(acc, &l) + safe_log(-acc, &l);
  return ok * l + v[0] * v[1] * acc;
}

__attribute__((noinline)) void minmax_f(const float *a, int n, float *lo, float *hi) {
  *lo = a[0];
  *hi = a[0];
  for (int i = 1; i < n; i++) {
    if (a[i] < *lo) *lo = a[i];
    if (a[i] > *hi) *hi = a[i];
  }
}

static void spread(const float *a, float *out, int n) {
  float lo, hi;
  minmax_f(a, n, &lo, &hi);
  *out = (hi - lo) * (hi + 2.0f * lo);
}

static double R = 1.3, TH = 0.55;
static double W[N] = {0.5, 1.5, -0.25, 0.75, 2.0};
static double f_r(double r) { return f(r, TH, W, N); }
static double f_th(double th) { return f(R, th, W, N); }
static double f_w(const double *w) { return f(R, TH, w, N); }

typedef struct { double dr, dth; } g2;
extern g2 __enzyme_autodiff_2(void *, ...);

int main(void) {
  double dw[N] = {0};
  g2 g = __enzyme_autodiff_2((void *)f, R, TH, enzyme_dup, W, dw, enzyme_const, N);
  check_close("df/dr", g.dr, fd1(f_r, R), 1e-6);
  check_close("df/dth", g.dth, fd1(f_th, TH), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dw", dw[i], fd_array(f_w, W, i), 1e-6);
  double dr = __enzyme_autodiff((void *)f, R, enzyme_const, TH, enzyme_const, W, enzyme_const, N);
  check_close("df/dr (rest const)", dr, fd1(f_r, R), 1e-6);

  float a[N] = {0.5f, -1.25f, 2.0f, 0.75f, -0.5f}, da[N] = {0}, out, dout = 1.0f;
  __enzyme_autodiff_v((void *)spread, enzyme_dup, a, da, enzyme_dup, &out, &dout, enzyme_const, N);
  /* lo = a[1] = -1.25, hi = a[2] = 2: out = (hi - lo)(hi + 2 lo). */
  float want[N] = {0, 0, 0, 0, 0};
  want[2] = (2.0f + 2 * -1.25f) + (2.0f - -1.25f);
  want[1] = -(2.0f + 2 * -1.25f) + 2 * (2.0f - -1.25f);
  for (int i = 0; i < N; i++) check_close("spread d/da", da[i], want[i], 1e-6);
  check_close("spread dout", dout, 0.0, 0.0);
  return check_finish();
}
