/* Small static helpers that LLVM inlines at -O2 but calls at -O0: a clamp with early returns,
 * a smooth-step called in a loop, helpers calling helpers, a static helper called from a
 * noinline function, and static inline float helpers summed over a float array. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 8 };

static double clamp(double v, double lo, double hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}
static double smooth(double v) {
  double t = clamp(v, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}
static double sq(double v) { return v * v; }
static double mix(double a, double b, double t) { return a + (b - a) * smooth(t); }

__attribute__((noinline)) double blend_row(const double *a, int n, double t) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += sq(mix(a[i], a[i + 1], t + 0.1 * i));
  return s;
}

static double f(const double *a, int n, double t) {
  double s = blend_row(a, n, t);
  for (int i = 0; i < n; i++) s += smooth(a[i]) * clamp(a[i] * t, -0.5, 0.5);
  return s;
}

static inline float lerpf(float a, float b, float t) { return a + t * (b - a); }
static inline float cubef(float v) { return v * v * v; }
static float g(const float *x, int n) {
  float s = 0;
  for (int i = 1; i < n; i++) s += cubef(lerpf(x[i - 1], x[i], 0.25f)) - x[i] * lerpf(1.0f, x[0], 0.5f);
  return s;
}

/* Points chosen away from the kinks of clamp (at 0, 1 and +-0.5/t). */
static double A[N] = {0.2, 0.65, -0.3, 1.4, 0.45, 0.8, 0.1, 0.55};
static double T = 0.37;
static double f_a(const double *a) { return f(a, N, T); }
static double f_t(double t) { return f(A, N, t); }
static double XD[N];
static double g_ref(const double *x) {
  double s = 0;
  for (int i = 1; i < N; i++) {
    double l = x[i - 1] + 0.25 * (x[i] - x[i - 1]);
    s += l * l * l - x[i] * (1.0 + 0.5 * (x[0] - 1.0));
  }
  return s;
}

int main(void) {
  double da[N] = {0};
  double dt = __enzyme_autodiff((void *)f, enzyme_dup, A, da, enzyme_const, N, T);
  check_close("df/dt", dt, fd1(f_t, T), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/da", da[i], fd_array(f_a, A, i), 1e-6);

  float x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) XD[i] = x[i] = 0.25f * i - 0.8f;
  __enzyme_autodiff_v((void *)g, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dg/dx", dx[i], fd_array(g_ref, XD, i), 1e-5);
  return check_finish();
}
