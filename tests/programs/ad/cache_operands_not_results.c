/* Several values needed by the reverse sweep (sin(a), cos(b), a*b, a+b, a/b) are all recomputed
 * from two loaded values a and b whose memory is overwritten afterwards: caching a and b is
 * enough.  In a nested loop, with the loads' memory overwritten between outer iterations. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 7, R = 3, C = 5 };

static double f(double *x, double *y, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    double a = x[i], b = y[i];
    r += sin(a) * cos(b) + (a * b) * (a + b) + a / b;
  }
  for (int i = 0; i < n; i++) x[i] = y[i] = 1.0;
  return r;
}

static double g(double *m, int rows, int cols) {
  double r = 0;
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j + 1 < cols; j++) {
      double a = m[i * cols + j], b = m[i * cols + j + 1];
      r += exp(a - b) * (a * b) + sqrt(b * b + 1.0) * a;
    }
    for (int j = 0; j < cols; j++) m[i * cols + j] *= 0.5; /* overwritten, still live */
  }
  return r;
}

static double X[N], Y[N], M[R * C];
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
  double a[R * C];
  for (int i = 0; i < R * C; i++) a[i] = m[i];
  return g(a, R, C);
}

int main(void) {
  double x[N], y[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) X[i] = x[i] = 0.5 + 0.3 * sin(i), Y[i] = y[i] = 1.2 + 0.25 * cos(2 * i);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double a = X[i], b = Y[i];
    check_close("df/dx exact", dx[i], cos(a) * cos(b) + 2 * a * b + b * b + 1 / b, 1e-12);
    check_close("df/dy exact", dy[i], -sin(a) * sin(b) + a * a + 2 * a * b - a / (b * b), 1e-12);
  }
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, X, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dy", dy[i], fd_array(fy, Y, i), 1e-6);

  double m[R * C], dm[R * C] = {0};
  for (int i = 0; i < R * C; i++) M[i] = m[i] = 0.3 + 0.2 * sin(1.7 * i);
  __enzyme_autodiff((void *)g, enzyme_dup, m, dm, enzyme_const, R, enzyme_const, C);
  for (int i = 0; i < R * C; i++) check_close("dg/dm", dm[i], fd_array(gm, M, i), 1e-6);
  return check_finish();
}
