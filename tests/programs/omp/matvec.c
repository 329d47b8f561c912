/* Matrix-vector products, parallel over rows: double with a reduction over each row done by one
   thread, float, and a transposed product accumulated with atomics. */
#include <omp.h>
#include <stdio.h>

#define N 120
#define M 90

__attribute__((noinline)) void matvec(int n, int m, const double *a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < m; j++) s += a[i * m + j] * x[j];
    y[i] = s;
  }
}

__attribute__((noinline)) void matvec_f(int n, int m, const float *a, const float *x, float *y) {
#pragma omp parallel for schedule(static, 8)
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < m; j++) s += a[i * m + j] * x[j];
    y[i] = s;
  }
}

__attribute__((noinline)) void matvec_t(int n, int m, const double *a, const double *y, double *x) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
#pragma omp atomic
      x[j] += a[i * m + j] * y[i];
    }
}

int main(void) {
  static double a[N * M], x[M], y[N], xt[M];
  static float af[N * M], xf[M], yf[N];
  for (int k = 0; k < N * M; k++) af[k] = (float)(a[k] = ((k * 7) % 11) * 0.1 - 0.5);
  for (int j = 0; j < M; j++) xf[j] = (float)(x[j] = 1.0 / (j + 1));
  matvec(N, M, a, x, y);
  matvec_f(N, M, af, xf, yf);
  matvec_t(N, M, a, y, xt);
  double s = 0, sf = 0, st = 0;
  for (int i = 0; i < N; i++) {
    s += y[i] * (i % 5);
    sf += yf[i] * (i % 5);
  }
  for (int j = 0; j < M; j++) st += xt[j] * (j % 3);
  printf("%.12g %.6g %.12g\n", s, sf, st);
  return 0;
}
