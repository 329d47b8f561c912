/* An array-section reduction, reduction(+ : h[0:8]): each thread adds into its own copy of the
 * histogram, combined at the end; h is accumulated into (its shadow keeps the seed), the bin of
 * each element comes from an integer array marked enzyme_const. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 211, B = 8 };

__attribute__((noinline)) void hist(int n, const double *x, const double *w, const int *bin, double *h) {
#pragma omp parallel for reduction(+ : h[0 : 8])
  for (int i = 0; i < n; i++) h[bin[i]] += w[i] * x[i] * x[i];
}

#ifdef XZ_SELFCHECK
static void ref_hist(int n, const double *x, double *dx, const double *w, double *dw, const int *bin, double *h, double *dh) {
  for (int i = 0; i < n; i++) {
    h[bin[i]] += w[i] * x[i] * x[i];
    dx[i] += XZ_SEED * dh[bin[i]] * 2 * w[i] * x[i];
    dw[i] += XZ_SEED * dh[bin[i]] * x[i] * x[i];
  }
}
#endif

int main(void) {
  static double x[N], w[N], dx[N], dw[N], want[N];
  static int bin[N], bin0[N];
  double h[B], dh[B], c[B];
  for (int i = 0; i < N; i++) {
    x[i] = cos(0.41 * i) - 0.2;
    w[i] = 0.5 + 0.25 * (i % 5);
    bin0[i] = bin[i] = (i * 5 + i / 7) % B;
  }
  for (int b = 0; b < B; b++) {
    h[b] = 0.1 * b;
    dh[b] = c[b] = 1.0 + 0.5 * b - 0.2 * b * b;
  }
  XZ_DIFF(__enzyme_autodiff((void *)hist, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, bin,
                            enzyme_dup, h, dh),
          ref_hist(N, x, dx, w, dw, bin, h, dh));
  for (int i = 0; i < N; i++) want[i] = c[bin[i]] * 2 * w[i] * x[i];
  check_all("dx", dx, want, N, 1e-14);
  for (int i = 0; i < N; i++) want[i] = c[bin[i]] * x[i] * x[i];
  check_all("dw", dw, want, N, 1e-14);
  check_all("dh keeps its seed", dh, c, B, 0);
  check_same("bin", bin, bin0, sizeof bin);
  return check_finish();
}
