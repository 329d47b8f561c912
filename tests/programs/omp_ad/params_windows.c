/* Parameters read by every iteration of a parallel loop (a mixture-like energy over points):
 * in the reverse sweep each thread sums their adjoints in windows of its own and adds them
 * into the shared gradient once at the end -- in double, in float, and at addresses that are
 * not a multiple of the element's size (a packed struct), where each addition stays atomic.
 * Checked against the closed-form derivatives. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 301, K = 7 };

typedef struct __attribute__((packed)) {
  float tag;
  double c;
} packed_t;

__attribute__((noinline)) double energy(int n, int k, const double *x, const double *mu, const float *s,
                                        const packed_t *q) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int c = 0; c < k; c++) {
      double d = x[i] - mu[c];
      e += s[c] * d * d + q[c].c * x[i];
    }
  return e;
}

#ifdef XZ_SELFCHECK
static double ref_energy(int n, int k, const double *x, double *dx, const double *mu, double *dmu, const float *s,
                         float *ds, const packed_t *q, packed_t *dq) {
  for (int i = 0; i < n; i++)
    for (int c = 0; c < k; c++) {
      double d = x[i] - mu[c];
      dx[i] += XZ_SEED * (2 * s[c] * d + q[c].c);
      dmu[c] -= XZ_SEED * 2 * s[c] * d;
      ds[c] += (float)(XZ_SEED * d * d);
      dq[c].c += XZ_SEED * x[i];
    }
  return 0;
}
#endif

int main(void) {
  static double x[N], dx[N], want[N], mu[K], dmu[K];
  static float s[K], ds[K];
  static packed_t q[K], dq[K];
  for (int i = 0; i < N; i++) x[i] = sin(0.37 * i) + 0.1 * (i % 5);
  for (int c = 0; c < K; c++) {
    mu[c] = 0.3 * c - 1;
    s[c] = (float)(0.5 + 0.125 * c);
    q[c].tag = (float)c;
    q[c].c = 0.25 * (c - 3);
  }
  XZ_DIFF(__enzyme_autodiff((void *)energy, enzyme_const, N, enzyme_const, K, enzyme_dup, x, dx, enzyme_dup, mu, dmu,
                            enzyme_dup, s, ds, enzyme_dup, q, dq),
          ref_energy(N, K, x, dx, mu, dmu, s, ds, q, dq));
  for (int i = 0; i < N; i++) {
    want[i] = 0;
    for (int c = 0; c < K; c++) want[i] += 2.0 * s[c] * (x[i] - mu[c]) + q[c].c;
  }
  check_all("dx", dx, want, N, 1e-9);
  double got[K], wmu[K], ws[K], wq[K];
  for (int c = 0; c < K; c++) {
    wmu[c] = ws[c] = wq[c] = 0;
    for (int i = 0; i < N; i++) {
      double d = x[i] - mu[c];
      wmu[c] -= 2.0 * s[c] * d;
      ws[c] += d * d;
      wq[c] += x[i];
    }
    got[c] = dq[c].c;
  }
  check_all("dmu", dmu, wmu, K, 1e-9);
  check_allf("ds", ds, ws, K, 1e-5);
  check_all("dq.c", got, wq, K, 1e-9);
  for (int c = 0; c < K; c++) check_one("dq.tag", dq[c].tag, 0, 0);
  return check_finish();
}
