/* Matrix-vector products parallel over rows: y = A x (every row reads all of x, so the adjoint
 * of x gathers from every thread), and the transposed product x' = A^T y accumulated with
 * atomics (its reverse reads the adjoint of x' and adds into A and y). */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { M = 30, K = 20 };

__attribute__((noinline)) void matvec(int m, int k, const double *a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < k; j++) s += a[i * k + j] * x[j];
    y[i] = tanh(s);
  }
}

__attribute__((noinline)) void matvec_t(int m, int k, const double *a, const double *y, double *xt) {
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    for (int j = 0; j < k; j++) {
#pragma omp atomic
      xt[j] += a[i * k + j] * y[i];
    }
}

static double A[M * K], X[K], Y[M], CY[M], CX[K];
static double loss(void) {
  double y[M], s = 0;
  matvec(M, K, A, X, y);
  for (int i = 0; i < M; i++) s += CY[i] * y[i];
  return s;
}
static double loss_t(void) {
  double xt[K] = {0}, s = 0;
  matvec_t(M, K, A, Y, xt);
  for (int j = 0; j < K; j++) s += CX[j] * xt[j] * xt[j];
  return s;
}

#ifdef XZ_SELFCHECK
static void ref_matvec(int m, int k, const double *a, double *da, const double *x, double *dx, double *y, double *dy) {
  matvec(m, k, a, x, y);
  for (int i = 0; i < m; i++) {
    double sb = XZ_SEED * dy[i] * (1 - y[i] * y[i]);
    for (int j = 0; j < k; j++) {
      da[i * k + j] += sb * x[j];
      dx[j] += sb * a[i * k + j];
    }
    dy[i] = 0;
  }
}
static void ref_matvec_t(int m, int k, const double *a, double *da, const double *y, double *dy, double *xt, double *dxt) {
  matvec_t(m, k, a, y, xt);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < k; j++) {
      da[i * k + j] += XZ_SEED * dxt[j] * y[i];
      dy[i] += XZ_SEED * dxt[j] * a[i * k + j];
    }
}
#endif

int main(void) {
  static double da[M * K], dx[K], y[M], dy[M], da2[M * K], dy2[M], xt[K], dxt[K];
  for (int i = 0; i < M * K; i++) A[i] = 0.3 * sin(0.37 * i) + 0.05;
  for (int j = 0; j < K; j++) X[j] = cos(0.5 * j);
  for (int i = 0; i < M; i++) {
    dy[i] = CY[i] = 1 + 0.1 * i;
    Y[i] = sin(0.2 * i + 1);
  }
  XZ_DIFF(__enzyme_autodiff((void *)matvec, enzyme_const, M, enzyme_const, K, enzyme_dup, A, da, enzyme_dup, X, dx, enzyme_dup,
                            y, dy),
          ref_matvec(M, K, A, da, X, dx, y, dy));
  check_fd("matvec dx", dx, X, K, loss, 1e-6);
  check_fd_dir("matvec dA", da, A, M * K, loss, 1e-6);
  check_close("matvec dA[47]", da[47], fd_at(loss, &A[47]), 1e-6);
  check_zero("dy", dy, M);

  /* loss_t = sum_j c_j xt_j^2 with xt = A^T y: seed dxt_j = 2 c_j xt_j */
  double xt0[K] = {0};
  for (int j = 0; j < K; j++) CX[j] = 0.5 + 0.05 * j;
  matvec_t(M, K, A, Y, xt0);
  for (int j = 0; j < K; j++) dxt[j] = 2 * CX[j] * xt0[j];
  XZ_DIFF(__enzyme_autodiff((void *)matvec_t, enzyme_const, M, enzyme_const, K, enzyme_dup, A, da2, enzyme_dup, Y, dy2,
                            enzyme_dup, xt, dxt),
          ref_matvec_t(M, K, A, da2, Y, dy2, xt, dxt));
  check_fd("matvec_t dy", dy2, Y, M, loss_t, 1e-6);
  check_fd_dir("matvec_t dA", da2, A, M * K, loss_t, 1e-6);
  for (int j = 0; j < K; j++) check_close("dxt keeps its seed", dxt[j], 2 * CX[j] * xt0[j], 0);
  return check_finish();
}
