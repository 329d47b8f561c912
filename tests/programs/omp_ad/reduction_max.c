/* reduction(max : m), written with fmax and with a comparison: the adjoint of the maximum goes
 * to the one element that holds it (held by one thread) and to nothing else. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 131 };

__attribute__((noinline)) double vmax(int n, const double *x, const double *w) {
  double m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, x[i] * w[i]);
  return m;
}

__attribute__((noinline)) double vmax_sq(int n, const double *x) {
  double m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double v = sin(3 * x[i]) + x[i];
    if (v > m) m = v;
  }
  return m * m;
}

static int argmax(int n, double (*v)(int)) {
  int k = 0;
  for (int i = 1; i < n; i++)
    if (v(i) > v(k)) k = i;
  return k;
}
static double X[N], W[N];
static double v1(int i) { return X[i] * W[i]; }
static double v2(int i) { return sin(3 * X[i]) + X[i]; }
static double loss(void) { return vmax(N, X, W); }
static double loss_sq(void) { return vmax_sq(N, X); }

#ifdef XZ_SELFCHECK
static double ref_vmax(int n, const double *x, double *dx, const double *w, double *dw) {
  int k = argmax(n, v1);
  dx[k] += XZ_SEED * w[k];
  dw[k] += XZ_SEED * x[k];
  return 0;
}
static double ref_vmax_sq(int n, const double *x, double *dx) {
  int k = argmax(n, v2);
  dx[k] += XZ_SEED * 2 * v2(k) * (3 * cos(3 * x[k]) + 1);
  return 0;
}
#endif

int main(void) {
  static double dx[N], dw[N], want[N], dx2[N];
  for (int i = 0; i < N; i++) {
    X[i] = 2 * sin(0.77 * i + 0.1) + 0.001 * i;
    W[i] = 1 + 0.5 * cos(0.31 * i);
  }
  XZ_DIFF(__enzyme_autodiff((void *)vmax, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, W, dw), ref_vmax(N, X, dx, W, dw));
  int k = argmax(N, v1);
  printf("argmax %d (x*w = %.6g)\n", k, v1(k));
  for (int i = 0; i < N; i++) want[i] = i == k ? W[k] : 0;
  check_all("vmax dx", dx, want, N, 1e-15);
  for (int i = 0; i < N; i++) want[i] = i == k ? X[k] : 0;
  check_all("vmax dw", dw, want, N, 1e-15);
  check_fd_dir("vmax dx", dx, X, N, loss, 1e-6);

  XZ_DIFF(__enzyme_autodiff((void *)vmax_sq, enzyme_const, N, enzyme_dup, X, dx2), ref_vmax_sq(N, X, dx2));
  k = argmax(N, v2);
  printf("argmax %d (sin(3x)+x = %.6g)\n", k, v2(k));
  for (int i = 0; i < N; i++) want[i] = i == k ? 2 * v2(k) * (3 * cos(3 * X[k]) + 1) : 0;
  check_all("vmax_sq dx", dx2, want, N, 1e-13);
  check_fd("vmax_sq dx (fd)", dx2, X, N, loss_sq, 1e-6);
  return check_finish();
}
