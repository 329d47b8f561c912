/* The classic cache choice: s = x[i] + y[i] is used nonlinearly, then x and y are overwritten.
 * The reverse sweep needs s (for s*s and sin(s)), which is cheaper to cache than x[i] and y[i];
 * either way the derivative must be exact.  Also inside a nested loop over a matrix row. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 9, R = 3, C = 4 };

static double f(double *x, double *y, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    double s = x[i] + y[i];
    r += s * s + sin(s) * (i + 1);
  }
  for (int i = 0; i < n; i++) {
    x[i] = 0;
    y[i] = -1;
  }
  return r;
}

/* The same shape in two loops; the row's values are overwritten after each row. */
static double g(double *m, double *v, int rows, int cols) {
  double r = 0;
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) {
      double s = m[i * cols + j] + v[j];
      r += cos(s) * s;
    }
    for (int j = 0; j < cols; j++) m[i * cols + j] = 2.0;
  }
  for (int j = 0; j < cols; j++) v[j] = 0;
  return r;
}

static double X[N], Y[N], M[R * C], V[C];
static double fx(const double *x) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = x[i], b[i] = Y[i];
  return f(a, b, N);
}
static double fy(const double *y) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = X[i], b[i] = y[i];
  return f(a, b, N);
}
static double gm(const double *m) {
  double a[R * C], b[C];
  for (int i = 0; i < R * C; i++) a[i] = m[i];
  for (int j = 0; j < C; j++) b[j] = V[j];
  return g(a, b, R, C);
}
static double gv(const double *v) {
  double a[R * C], b[C];
  for (int i = 0; i < R * C; i++) a[i] = M[i];
  for (int j = 0; j < C; j++) b[j] = v[j];
  return g(a, b, R, C);
}

int main(void) {
  double x[N], y[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) X[i] = x[i] = 0.4 * sin(i + 1.0), Y[i] = y[i] = 0.3 - 0.07 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, X, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dy", dy[i], fd_array(fy, Y, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("dx exact", dx[i], 2 * (X[i] + Y[i]) + cos(X[i] + Y[i]) * (i + 1), 1e-12);

  double m[R * C], v[C], dm[R * C] = {0}, dv[C] = {0};
  for (int i = 0; i < R * C; i++) M[i] = m[i] = cos(0.7 * i);
  for (int j = 0; j < C; j++) V[j] = v[j] = 0.2 * j - 0.1;
  __enzyme_autodiff((void *)g, enzyme_dup, m, dm, enzyme_dup, v, dv, enzyme_const, R, enzyme_const, C);
  for (int i = 0; i < R * C; i++) check_close("dg/dm", dm[i], fd_array(gm, M, i), 1e-6);
  for (int j = 0; j < C; j++) check_close("dg/dv", dv[j], fd_array(gv, V, j), 1e-6);
  return check_finish();
}
