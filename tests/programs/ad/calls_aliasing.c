/* One array passed twice to the same callee: a dot product dot(x, x), an axpy whose source and
 * destination are the same array (y = y + a*y), a callee that reads two overlapping windows of
 * one array, and a float in-place update where the output pointer aliases an input. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 6 };

__attribute__((noinline)) double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

__attribute__((noinline)) void axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

static double self_dot(double *x, int n, double a) {
  double q = dot(x, x, n);
  axpy(a, x, x, n); /* x <- (1 + a) x */
  return q + dot(x, x + 1, n - 1) + sin(dot(x + 2, x, n - 2));
}

__attribute__((noinline)) void blend_f(const float *a, const float *b, float *out, int n, float t) {
  for (int i = 0; i < n; i++) out[i] = (1.0f - t) * a[i] + t * b[i] * a[i];
}

static void blend_twice(float *x, int n) {
  blend_f(x, x, x, n, 0.25f);     /* out aliases both inputs */
  blend_f(x, x + 1, x, n - 1, 0.5f); /* out overlaps b shifted by one */
}

static double X0[N] = {0.4, -0.3, 1.2, 0.8, -1.5, 0.6};
static double A = 0.35;
static double sd_x(const double *x) {
  double t[N];
  for (int i = 0; i < N; i++) t[i] = x[i];
  return self_dot(t, N, A);
}
static double sd_a(double a) {
  double t[N];
  for (int i = 0; i < N; i++) t[i] = X0[i];
  return self_dot(t, N, a);
}

/* blend_twice in double precision, outputs weighted by SEED. */
static double F0[N], SEED[N];
static double blend_ref(const double *x0) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  for (int i = 0; i < N; i++) x[i] = 0.75 * x[i] + 0.25 * x[i] * x[i];
  for (int i = 0; i < N - 1; i++) x[i] = 0.5 * x[i] + 0.5 * x[i + 1] * x[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += SEED[i] * x[i];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = X0[i];
  double da = __enzyme_autodiff((void *)self_dot, enzyme_dup, x, dx, enzyme_const, N, A);
  check_close("self_dot d/da", da, fd1(sd_a, A), 1e-6);
  for (int i = 0; i < N; i++) check_close("self_dot d/dx", dx[i], fd_array(sd_x, X0, i), 1e-6);
  check_close("x overwritten", x[2], (1 + A) * X0[2], 1e-15);

  float f[N], df[N];
  for (int i = 0; i < N; i++) {
    F0[i] = 0.3 * i - 0.6;
    f[i] = (float)F0[i];
    F0[i] = f[i];
    SEED[i] = 1.0 + i;
    df[i] = (float)SEED[i];
  }
  __enzyme_autodiff_v((void *)blend_twice, enzyme_dup, f, df, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("blend d/dx", df[i], fd_array(blend_ref, F0, i), 1e-5);
  return check_finish();
}
