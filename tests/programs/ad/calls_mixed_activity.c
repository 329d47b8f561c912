/* One callee reached with different activities from different call sites: dot(x, w) with w a
 * constant table, dot(w, x) with the roles swapped, dot(x, y) with both active and dot(w, w)
 * with neither; a scalar callee called with an active and a constant first argument; and the
 * same float callee writing once into active and once into inactive (local, constant) memory. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 5 };

static const double Wt[N] = {0.5, -1.0, 2.0, 0.25, -0.75};

__attribute__((noinline)) double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

__attribute__((noinline)) double bend(double u, double v) { return u * exp(-v * v) + v; }

static double f(const double *x, const double *y, int n, double t) {
  double a = dot(x, Wt, n), b = dot(Wt, x, n), c = dot(x, y, n), d = dot(Wt, Wt, n);
  return bend(a, t) + bend(3.0, b * c) + bend(t, 0.5) * d;
}

__attribute__((noinline)) void scale_into(const float *src, float *dst, int n, float k) {
  for (int i = 0; i < n; i++) dst[i] = src[i] * src[i] * k;
}
static float g(const float *x, int n) {
  float active[N], table[N];
  static const float ones[N] = {1, 1, 1, 1, 1};
  scale_into(x, active, n, 2.0f);
  scale_into(ones, table, n, 3.0f);
  float s = 0;
  for (int i = 0; i < n; i++) s += active[i] * table[(i + 1) % n];
  return s;
}

static double X[N] = {0.3, -0.2, 0.8, 1.1, -0.5}, Y[N] = {1.0, 0.4, -0.6, 0.2, 0.9};
static double T = 0.6;
static double f_x(const double *x) { return f(x, Y, N, T); }
static double f_y(const double *y) { return f(X, y, N, T); }
static double f_t(double t) { return f(X, Y, N, t); }

int main(void) {
  double dx[N] = {0}, dy[N] = {0};
  double dt = __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, Y, dy, enzyme_const, N, T);
  check_close("df/dt", dt, fd1(f_t, T), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dy", dy[i], fd_array(f_y, Y, i), 1e-6);

  /* Again with y constant: only x's derivative. */
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_const, Y, enzyme_const, N, enzyme_const, T);
  for (int i = 0; i < N; i++) check_close("df/dx (y, t const)", dx[i], fd_array(f_x, X, i), 1e-6);

  float x[N] = {0.5f, -1.0f, 1.5f, 0.25f, 2.0f}, dxf[N] = {0};
  __enzyme_autodiff_v((void *)g, enzyme_dup, x, dxf, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dg/dx", dxf[i], 2 * 2.0 * x[i] * 3.0, 1e-6);
  return check_finish();
}
