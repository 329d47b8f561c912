/* schedule(static, 1): neighbouring iterations run on different threads, and each iteration reads
 * its neighbour's input as well as its own, so in the reverse sweep two threads add into the
 * adjoint of the same element; also a mirrored read, x[n-1-i], under a reduction. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 97 };

__attribute__((noinline)) void pairs(int n, const double *x, double *y) {
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < n; i++) y[i] = x[i] * x[(i + 1) % n] + exp(-x[i] * x[i]);
}

__attribute__((noinline)) double mirror(int n, const double *x) {
  double s = 0;
#pragma omp parallel for schedule(static, 1) reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[n - 1 - i];
  return s;
}

static double X[N], C[N];

static double loss(void) {
  double y[N], s = 0;
  pairs(N, X, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

#ifdef XZ_SELFCHECK
static void ref_pairs(int n, const double *x, double *dx, double *y, double *dy) {
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    double yb = XZ_SEED * dy[i];
    y[i] = x[i] * x[j] + exp(-x[i] * x[i]);
    dx[i] += yb * (x[j] - 2 * x[i] * exp(-x[i] * x[i]));
    dx[j] += yb * x[i];
    dy[i] = 0;
  }
}
static void ref_mirror(int n, const double *x, double *dx) {
  for (int i = 0; i < n; i++) dx[i] += XZ_SEED * 2 * x[n - 1 - i];
}
#endif

int main(void) {
  static double dx[N], y[N], dy[N], dx2[N], want[N];
  for (int i = 0; i < N; i++) {
    X[i] = sin(0.7 * i) + 0.3 * cos(2.1 * i);
    C[i] = 1.0 + 0.5 * sin(0.3 * i);
    dy[i] = C[i];
  }
  XZ_DIFF(__enzyme_autodiff((void *)pairs, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, y, dy),
          ref_pairs(N, X, dx, y, dy));
  check_fd("pairs dx", dx, X, N, loss, 1e-6);
  check_zero("dy", dy, N);

  XZ_DIFF(__enzyme_autodiff((void *)mirror, enzyme_const, N, enzyme_dup, X, dx2), ref_mirror(N, X, dx2));
  for (int i = 0; i < N; i++) want[i] = 2 * X[N - 1 - i];
  check_all("mirror dx", dx2, want, N, 1e-13);
  return check_finish();
}
