/* Indirect indexing through integer arrays: a gather y_i = x[idx[i]] with repeated indices (the
 * adjoint scatters and adds), a scatter-add into local bins, reversed traversal, and a
 * data-dependent conditional store. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 20, M = 7 };

static double f(const double *x, const int *idx, double *bins, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[idx[i]] * x[n - 1 - i];  /* gather + reversed */
  for (int b = 0; b < M; b++) bins[b] = 0;
  for (int i = 0; i < n; i++) bins[idx[i] % M] += x[i] * x[i];  /* scatter-add */
  for (int i = 0; i < n; i++)
    if (x[i] > 0.2) bins[i % M] = bins[i % M] * 0.5 + x[i];      /* conditional overwrite */
  for (int b = 0; b < M; b++) s += bins[b] * bins[b] * (b + 1);
  return s;
}

static int IDX[N];
static double fx(const double *x) {
  double bins[M];
  return f(x, IDX, bins, N);
}

int main(void) {
  double x[N], dx[N] = {0}, bins[M], dbins[M] = {0};
  for (int i = 0; i < N; i++) { x[i] = sin(1.3 * i) * 0.8; IDX[i] = (i * 7 + 3) % 11; }
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, IDX, bins, dbins, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  check_zero("dbins", dbins, M);
  return check_finish();
}
