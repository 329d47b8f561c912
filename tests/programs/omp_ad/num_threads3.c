/* num_threads(3): a team of three whatever OMP_NUM_THREADS says -- a reduction loop with
 * schedule(static, 2), and a region partitioned by hand over its three threads. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 100 };

__attribute__((noinline)) double f(int n, const double *x, const double *w) {
  double s = 0;
#pragma omp parallel for num_threads(3) schedule(static, 2) reduction(+ : s)
  for (int i = 0; i < n; i++) s += w[i] * cos(x[i]) * x[i];
  return s;
}

__attribute__((noinline)) void g(int n, const double *x, double *y) {
#pragma omp parallel num_threads(3)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = t; i < n; i += nt) y[i] = x[i] * x[(i + 2) % n];
  }
}

static double X[N], W[N], C[N];
static double loss(void) { return f(N, X, W); }
static double loss_g(void) {
  double y[N], s = 0;
  g(N, X, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *x, double *dx, const double *w, double *dw) {
  for (int i = 0; i < n; i++) {
    dx[i] += XZ_SEED * w[i] * (cos(x[i]) - sin(x[i]) * x[i]);
    dw[i] += XZ_SEED * cos(x[i]) * x[i];
  }
}
static void ref_g(int n, const double *x, double *dx, double *y, double *dy) {
  g(n, x, y);
  for (int i = 0; i < n; i++) {
    dx[i] += XZ_SEED * dy[i] * x[(i + 2) % n];
    dx[(i + 2) % n] += XZ_SEED * dy[i] * x[i];
    dy[i] = 0;
  }
}
#endif

int main(void) {
  static double dx[N], dw[N], dx2[N], y[N], dy[N], want[N];
  for (int i = 0; i < N; i++) {
    X[i] = 1.4 * sin(0.6 * i);
    W[i] = 0.7 + 0.3 * cos(0.1 * i);
    dy[i] = C[i] = 1 - 0.015 * i;
  }
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, W, dw), ref_f(N, X, dx, W, dw));
  for (int i = 0; i < N; i++) want[i] = W[i] * (cos(X[i]) - sin(X[i]) * X[i]);
  check_all("f dx", dx, want, N, 1e-14);
  check_fd("f dw", dw, W, N, loss, 1e-6);

  XZ_DIFF(__enzyme_autodiff((void *)g, enzyme_const, N, enzyme_dup, X, dx2, enzyme_dup, y, dy), ref_g(N, X, dx2, y, dy));
  check_fd("g dx", dx2, X, N, loss_g, 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
