/* Matrix-vector product y = A x + b written to an output array (void function, dup output seeded
 * by the caller), and a transposed product; the output shadows are zero afterwards. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { M = 6, N = 9 };

static void matvec(const double *a, const double *x, const double *b, double *y, int m, int n) {
  for (int i = 0; i < m; i++) {
    double s = b[i];
    for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

static void matvec_t(const double *a, const double *y, double *x, int m, int n) {
  for (int j = 0; j < n; j++) x[j] = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) x[j] += a[i * n + j] * y[i];
}

int main(void) {
  double a[M * N], da[M * N] = {0}, x[N], dx[N] = {0}, b[M], db[M] = {0}, y[M], dy[M], w[M];
  for (int i = 0; i < M * N; i++) a[i] = sin(0.9 * i);
  for (int j = 0; j < N; j++) x[j] = 0.5 - 0.1 * j;
  for (int i = 0; i < M; i++) { b[i] = 0.3 * i; w[i] = 1.0 + i; dy[i] = w[i]; }
  __enzyme_autodiff((void *)matvec, a, da, x, dx, b, db, y, dy, M, N);
  /* d<w, Ax+b>/dA[i][j] = w_i x_j, /dx_j = sum_i w_i A[i][j], /db_i = w_i */
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j += 2) check_close("d/dA", da[i * N + j], w[i] * x[j], 1e-14);
  for (int j = 0; j < N; j++) {
    double s = 0;
    for (int i = 0; i < M; i++) s += w[i] * a[i * N + j];
    check_close("d/dx", dx[j], s, 1e-13);
  }
  for (int i = 0; i < M; i++) check_close("d/db", db[i], w[i], 0);
  check_zero("dy", dy, M);

  double xt[N], dxt[N], dyt[M] = {0}, dat[M * N] = {0};
  for (int j = 0; j < N; j++) dxt[j] = 0.5 + j;
  __enzyme_autodiff((void *)matvec_t, a, dat, b, dyt, xt, dxt, M, N);
  for (int i = 0; i < M; i++) {
    double s = 0;
    for (int j = 0; j < N; j++) s += a[i * N + j] * (0.5 + j);
    check_close("d/dy (transposed)", dyt[i], s, 1e-13);
  }
  check_close("d/dA (transposed)", dat[2 * N + 3], b[2] * 3.5, 1e-14);
  check_zero("dxt", dxt, N);
  return check_finish();
}
