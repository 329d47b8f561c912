/* logsumexp in one parallel region: an `omp for` with reduction(max : m), then an `omp for`
 * with reduction(+ : s) that reads m; the gradient is the softmax (the path through the maximum
 * cancels). */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 173 };

__attribute__((noinline)) double lse(int n, const double *x) {
  double m = -INFINITY, s = 0;
#pragma omp parallel
  {
#pragma omp for reduction(max : m)
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
  }
  return m + log(s);
}

static double X[N];
static double loss(void) { return lse(N, X); }

#ifdef XZ_SELFCHECK
static void ref_lse(int n, const double *x, double *dx) {
  double l = lse(n, x);
  for (int i = 0; i < n; i++) dx[i] += XZ_SEED * exp(x[i] - l);
}
#endif

int main(void) {
  static double dx[N], want[N];
  for (int i = 0; i < N; i++) X[i] = 3 * sin(0.37 * i) + 0.01 * i;
  XZ_DIFF(__enzyme_autodiff((void *)lse, enzyme_const, N, enzyme_dup, X, dx), ref_lse(N, X, dx));
  double l = lse(N, X), sum = 0;
  for (int i = 0; i < N; i++) want[i] = exp(X[i] - l), sum += dx[i];
  check_all("dx = softmax", dx, want, N, 1e-12);
  check_close("sum of dx", sum, 1.0, 1e-12);
  check_fd_dir("dx", dx, X, N, loss, 1e-6);
  return check_finish();
}
