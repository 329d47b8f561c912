/* Callees marked optnone (kept as clang's -O0 code: every local in an alloca, loads and stores
 * around each use) called from optimised code, and an optimised noinline callee called from an
 * optnone function: a local array filled in a loop, a float accumulator passed by address, and
 * a long loop counter. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 6 };

__attribute__((optnone, noinline)) double moments(const double *x, long n, double *var) {
  double m = 0, v = 0;
  for (long i = 0; i < n; i++) m += x[i];
  m /= n;
  for (long i = 0; i < n; i++) {
    double d = x[i] - m;
    v += d * d;
  }
  *var = v / n;
  return m;
}

__attribute__((noinline)) double softabs(double v) { return sqrt(v * v + 0.01); }

__attribute__((optnone, noinline)) double smooth_l1(const double *x, int n, double c) {
  double tmp[8];
  for (int i = 0; i < n; i++) tmp[i] = softabs(x[i] - c);
  double s = 0;
  for (int i = n - 1; i >= 0; i--) s = s * 0.5 + tmp[i];
  return s;
}

static double f(const double *x, int n, double c) {
  double var;
  double m = moments(x, n, &var);
  return m * var + smooth_l1(x, n, c * m);
}

__attribute__((optnone, noinline)) void acc_f(float *acc, float v, int k) {
  float t = v;
  for (int j = 1; j < k; j++) t *= v;
  *acc += t;
}
static float g(const float *x, int n) {
  float acc = 0;
  for (int i = 0; i < n; i++) acc_f(&acc, x[i], i + 1);
  return acc * acc;
}

static double X[N] = {0.3, -0.9, 1.4, 0.2, 0.75, -0.1};
static double C = 0.6;
static double f_x(const double *x) { return f(x, N, C); }
static double f_c(double c) { return f(X, N, c); }

int main(void) {
  double dx[N] = {0};
  double dc = __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_const, N, C);
  check_close("df/dc", dc, fd1(f_c, C), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);

  float y[N], dy[N] = {0};
  double acc = 0, want[N];
  for (int i = 0; i < N; i++) {
    y[i] = 0.9f - 0.25f * i;
    acc += pow(y[i], i + 1);
  }
  for (int i = 0; i < N; i++) want[i] = 2 * acc * (i + 1) * pow(y[i], i);
  __enzyme_autodiff_v((void *)g, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dg/dy", dy[i], want[i], 1e-5);
  return check_finish();
}
