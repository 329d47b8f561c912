/* schedule(guided) with an unsigned induction variable and a mirrored read x[n-1-i] (the
 * adjoint of one element comes from two iterations, usually on different threads), and
 * schedule(guided, 2) with a reduction. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 120 };

__attribute__((noinline)) void flip(unsigned n, const double *x, double *y) {
#pragma omp parallel for schedule(guided)
  for (unsigned i = 0; i < n; i++) y[i] = x[n - 1 - i] * x[i] + cos(x[i]);
}

__attribute__((noinline)) double logs(int n, const double *x, const double *w) {
  double s = 0;
#pragma omp parallel for schedule(guided, 2) reduction(+ : s)
  for (int i = 0; i < n; i++) s += w[i] * log(1 + x[i] * x[i]);
  return s;
}

static double X[N], W[N], C[N];

static double loss(void) {
  double y[N], s = 0;
  flip(N, X, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

#ifdef XZ_SELFCHECK
static void ref_flip(unsigned n, const double *x, double *dx, double *y, double *dy) {
  for (unsigned i = 0; i < n; i++) {
    double yb = XZ_SEED * dy[i];
    y[i] = x[n - 1 - i] * x[i] + cos(x[i]);
    dx[n - 1 - i] += yb * x[i];
    dx[i] += yb * (x[n - 1 - i] - sin(x[i]));
    dy[i] = 0;
  }
}
static void ref_logs(int n, const double *x, double *dx, const double *w, double *dw) {
  for (int i = 0; i < n; i++) {
    dx[i] += XZ_SEED * w[i] * 2 * x[i] / (1 + x[i] * x[i]);
    dw[i] += XZ_SEED * log(1 + x[i] * x[i]);
  }
}
#endif

int main(void) {
  static double dx[N], y[N], dy[N], dx2[N], dw2[N], want[N];
  for (int i = 0; i < N; i++) {
    X[i] = sin(0.23 * i * i + 0.5);
    W[i] = 1 + 0.01 * i;
    C[i] = cos(0.5 * i);
    dy[i] = C[i];
  }
  XZ_DIFF(__enzyme_autodiff((void *)flip, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, y, dy), ref_flip(N, X, dx, y, dy));
  check_fd("flip dx", dx, X, N, loss, 1e-6);
  check_zero("dy", dy, N);

  XZ_DIFF(__enzyme_autodiff((void *)logs, enzyme_const, N, enzyme_dup, X, dx2, enzyme_dup, W, dw2), ref_logs(N, X, dx2, W, dw2));
  for (int i = 0; i < N; i++) want[i] = W[i] * 2 * X[i] / (1 + X[i] * X[i]);
  check_all("logs dx", dx2, want, N, 1e-13);
  for (int i = 0; i < N; i++) want[i] = log(1 + X[i] * X[i]);
  check_all("logs dw", dw2, want, N, 1e-13);
  return check_finish();
}
