/* Statically scheduled worksharing loops: schedule(static) and (static, 4), int, unsigned and
   long induction variables, collapse(2), a loop nowait inside a parallel region, lastprivate. */
#include <omp.h>
#include <stdio.h>

#define N 1003

__attribute__((noinline)) void axpy(int n, double a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

__attribute__((noinline)) void scale_chunked(int n, double *x, double a) {
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++) x[i] = a * x[i] + 1.0;
}

__attribute__((noinline)) void square_unsigned(unsigned n, const double *x, double *y) {
#pragma omp parallel for
  for (unsigned i = 0; i < n; i++) y[i] = x[i] * x[i];
}

__attribute__((noinline)) void stride_long(long n, const float *x, float *y) {
#pragma omp parallel for schedule(static, 7)
  for (long i = n - 1; i >= 0; i -= 3) y[i] = 2.0f * x[i] - 1.0f;
}

__attribute__((noinline)) void outer(int n, int m, const double *a, double *b) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) b[i * m + j] = a[i * m + j] * (i + 1) - j;
}

__attribute__((noinline)) void two_loops(int n, const double *x, double *y, double *z) {
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++) y[i] = x[i] + 1;
#pragma omp for
    for (int i = 0; i < n; i++) z[i] = 3 * x[i];
  }
}

__attribute__((noinline)) double last_of(int n, const double *x) {
  double t = -1;
#pragma omp parallel for schedule(static, 3) lastprivate(t)
  for (int i = 0; i < n; i++) t = x[i] * x[i];
  return t;
}

int main(void) {
  static double x[N], y[N], z[N], a[31 * 17], b[31 * 17];
  static float xf[N], yf[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + i % 13;
    y[i] = 1.0 / (i + 1);
    xf[i] = 0.25f * (i % 7);
  }
  for (int i = 0; i < 31 * 17; i++) a[i] = i % 5;
  axpy(N, 2.0, x, y);
  scale_chunked(N, y, 0.5);
  square_unsigned(N, y, z);
  stride_long(N, xf, yf);
  outer(31, 17, a, b);
  two_loops(N, x, y, z);
  double s = 0, t = 0, u = 0, v = 0;
  for (int i = 0; i < N; i++) {
    s += y[i] * (i + 1);
    t += z[i] * (i % 3);
    u += yf[i] * (i % 5);
  }
  for (int i = 0; i < 31 * 17; i++) v += b[i] * (i % 11);
  printf("%.12g %.12g %.12g %.12g %.12g\n", s, t, u, v, last_of(N, x));
  return 0;
}
