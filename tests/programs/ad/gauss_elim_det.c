/* log|det A| by Gaussian elimination with partial pivoting on a local copy: data-dependent
 * pivot choice and row swaps, in-place elimination; d log|det A| / dA = A^{-T}, checked by
 * finite differences. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 5 };

static double logdet(const double *a0, int n) {
  double a[N * N];
  for (int i = 0; i < n * n; i++) a[i] = a0[i];
  double ld = 0;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(a[i * n + k]) > fabs(a[p * n + k])) p = i;
    if (p != k)
      for (int j = 0; j < n; j++) {
        double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
    double piv = a[k * n + k];
    ld += log(fabs(piv));
    for (int i = k + 1; i < n; i++) {
      double m = a[i * n + k] / piv;
      for (int j = k; j < n; j++) a[i * n + j] -= m * a[k * n + j];
    }
  }
  return ld;
}

static double fa(const double *a) { return logdet(a, N); }

int main(void) {
  double a[N * N], da[N * N] = {0};
  for (int i = 0; i < N * N; i++) a[i] = sin(1.7 * i + 0.3) + (i % (N + 1) == 0 ? 0.5 : 0.0);
  __enzyme_autodiff((void *)logdet, a, da, N);
  for (int i = 0; i < N * N; i++) check_close("dlogdet/da", da[i], fd_array(fa, a, i), 1e-6);
  return check_finish();
}
