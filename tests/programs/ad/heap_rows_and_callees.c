/* An array of malloc'd rows (double **), a helper that returns fresh memory to its caller,
 * and a helper that allocates and frees its own scratch space, called in a loop. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double rows(const double *x, int n) {
  double **m = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    m[i] = malloc(n * sizeof(double));
    for (int j = 0; j < n; j++) m[i][j] = x[i] * x[j] + (i == j);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += m[i][j] * m[j][(i + j) % n];
  for (int i = 0; i < n; i++) free(m[i]);
  free(m);
  return s;
}

__attribute__((noinline)) static double *squares(const double *x, int n) {
  double *r = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) r[i] = x[i] * x[i];
  return r;
}

__attribute__((noinline)) static double smooth_max(const double *x, int n, double k) {
  double *e = malloc(n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) {
    e[i] = exp(k * x[i]);
    s += e[i];
  }
  double m = 0;
  for (int i = 0; i < n; i++) m += x[i] * e[i] / s;
  free(e);
  return m;
}

static double callees(const double *x, int n) {
  double *q = squares(x, n);
  double s = 0;
  for (int r = 1; r <= 3; r++) s += smooth_max(q, n, 0.5 * r);
  free(q);
  return s;
}

int main(void) {
  double x[5] = {0.3, -0.8, 1.1, 0.45, -0.2};
  double dx[5] = {0};
  __enzyme_autodiff((void *)rows, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) check_close("rows", dx[i], fd_array_n(rows, x, 5, i), 1e-6);
  double dy[5] = {0};
  __enzyme_autodiff((void *)callees, enzyme_dup, x, dy, enzyme_const, 5);
  for (int i = 0; i < 5; i++) check_close("callees", dy[i], fd_array_n(callees, x, 5, i), 1e-6);
  return check_finish();
}
