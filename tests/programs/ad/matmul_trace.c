/* Matrix-matrix product into a local matrix, then trace(C^T C) (the squared Frobenius norm),
 * with the loops in i-k-j order that the vectoriser likes. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { M = 5, K = 6, N = 7 };

static double f(const double *a, const double *b) {
  double c[M * N];
  for (int i = 0; i < M * N; i++) c[i] = 0;
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) {
      double aik = a[i * K + k];
      for (int j = 0; j < N; j++) c[i * N + j] += aik * b[k * N + j];
    }
  double t = 0;
  for (int i = 0; i < M * N; i++) t += c[i] * c[i];
  return t;
}

static double A[M * K], B[K * N];
static double fa(const double *a) { return f(a, B); }
static double fb(const double *b) { return f(A, b); }

int main(void) {
  double da[M * K] = {0}, db[K * N] = {0};
  for (int i = 0; i < M * K; i++) A[i] = cos(0.4 * i);
  for (int i = 0; i < K * N; i++) B[i] = sin(0.3 * i + 1);
  __enzyme_autodiff((void *)f, A, da, B, db);
  for (int i = 0; i < M * K; i += 3) check_close("df/da", da[i], fd_array(fa, A, i), 1e-6);
  for (int i = 0; i < K * N; i += 4) check_close("df/db", db[i], fd_array(fb, B, i), 1e-6);
  return check_finish();
}
