/* Single precision: a float reduction(+) and a float `parallel for` writing an output array;
 * checked against the derivatives computed in double. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 256 };

__attribute__((noinline)) float wdot(int n, const float *x, const float *y, const float *w) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += w[i] * x[i] * y[i] + 0.5f * x[i] * x[i];
  return s;
}

__attribute__((noinline)) void softplus(int n, const float *x, float *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = logf(1 + expf(x[i])) * x[(i + 1) % n];
}

#ifdef XZ_SELFCHECK
static float ref_wdot(int n, const float *x, float *dx, const float *y, float *dy, const float *w) {
  for (int i = 0; i < n; i++) {
    dx[i] += (float)(XZ_SEED * ((double)w[i] * y[i] + x[i]));
    dy[i] += (float)(XZ_SEED * (double)w[i] * x[i]);
  }
  return 0;
}
static void ref_softplus(int n, const float *x, float *dx, float *y, float *dy) {
  softplus(n, x, y);
  for (int i = 0; i < n; i++) {
    double a = x[i], b = x[(i + 1) % n], yb = XZ_SEED * dy[i];
    dx[i] += (float)(yb * b / (1 + exp(-a)));
    dx[(i + 1) % n] += (float)(yb * log(1 + exp(a)));
    dy[i] = 0;
  }
}
#endif

int main(void) {
  static float x[N], y[N], w[N], dx[N], dy[N], dx2[N], out[N], dout[N];
  static double want[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)sin(0.3 * i);
    y[i] = (float)cos(0.7 * i);
    w[i] = (float)(1 + (i % 4) * 0.25);
    dout[i] = (float)(0.5 + 0.5 * sin(0.05 * i));
  }
  XZ_DIFF(__enzyme_autodiff((void *)wdot, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, w),
          ref_wdot(N, x, dx, y, dy, w));
  for (int i = 0; i < N; i++) want[i] = (double)w[i] * y[i] + x[i];
  check_allf("wdot dx", dx, want, N, 1e-6);
  for (int i = 0; i < N; i++) want[i] = (double)w[i] * x[i];
  check_allf("wdot dy", dy, want, N, 1e-6);

  XZ_DIFF(__enzyme_autodiff((void *)softplus, enzyme_const, N, enzyme_dup, x, dx2, enzyme_dup, out, dout),
          ref_softplus(N, x, dx2, out, dout));
  for (int i = 0; i < N; i++) {
    int p = (i + N - 1) % N; /* the iteration that reads x[i] as its neighbour */
    want[i] = (0.5 + 0.5 * sin(0.05 * i)) * x[(i + 1) % N] / (1 + exp(-(double)x[i])) +
              (0.5 + 0.5 * sin(0.05 * p)) * log(1 + exp((double)x[p]));
  }
  check_allf("softplus dx", dx2, want, N, 1e-5);
  check_zerof("dout", dout, N);
  return check_finish();
}
