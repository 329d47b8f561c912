/* A histogram built with atomic additions (many elements into few bins, in double and in
 * float): the bin of an element depends on its value, piecewise constant; the inputs sit away
 * from the bin edges. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 300, B = 10 };

__attribute__((noinline)) void hist(int n, const double *x, const double *w, double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int b = (int)(x[i] * B);
#pragma omp atomic
    h[b] += w[i] * sqrt(1 + x[i] * x[i]);
  }
}

__attribute__((noinline)) void histf(int n, const float *x, const float *w, float *h) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int b = (int)(x[i] * B);
#pragma omp atomic
    h[b] += w[i] * sqrtf(1 + x[i] * x[i]);
  }
}

#ifdef XZ_SELFCHECK
static void ref_hist(int n, const double *x, double *dx, const double *w, double *dw, double *h, double *dh) {
  hist(n, x, w, h);
  for (int i = 0; i < n; i++) {
    double g = XZ_SEED * dh[(int)(x[i] * B)], r = sqrt(1 + x[i] * x[i]);
    dx[i] += g * w[i] * x[i] / r;
    dw[i] += g * r;
  }
}
static void ref_histf(int n, const float *x, float *dx, const float *w, float *dw, float *h, float *dh) {
  histf(n, x, w, h);
  for (int i = 0; i < n; i++) {
    double g = XZ_SEED * dh[(int)(x[i] * B)], r = sqrt(1 + (double)x[i] * x[i]);
    dx[i] += (float)(g * w[i] * x[i] / r);
    dw[i] += (float)(g * r);
  }
}
#endif

int main(void) {
  static double x[N], w[N], dx[N], dw[N], want[N];
  static float xf[N], wf[N], dxf[N], dwf[N];
  double h[B] = {0}, dh[B], c[B];
  float hf[B] = {0}, dhf[B];
  for (int b = 0; b < B; b++) dhf[b] = (float)(dh[b] = c[b] = 1 + 0.3 * b - 0.05 * b * b);
  for (int i = 0; i < N; i++) {
    int b = (i * 7) % B;
    xf[i] = (float)(x[i] = (b + 0.25 + 0.5 * fabs(sin(1.3 * i))) / B); /* inside bin b, 0.025 from its edges */
    wf[i] = (float)(w[i] = 0.5 + 0.01 * i);
  }
  XZ_DIFF(__enzyme_autodiff((void *)hist, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, h, dh),
          ref_hist(N, x, dx, w, dw, h, dh));
  for (int i = 0; i < N; i++) want[i] = c[(int)(x[i] * B)] * w[i] * x[i] / sqrt(1 + x[i] * x[i]);
  check_all("dx", dx, want, N, 1e-14);
  for (int i = 0; i < N; i++) want[i] = c[(int)(x[i] * B)] * sqrt(1 + x[i] * x[i]);
  check_all("dw", dw, want, N, 1e-14);
  check_all("dh keeps its seed", dh, c, B, 0);

  XZ_DIFF(__enzyme_autodiff((void *)histf, enzyme_const, N, enzyme_dup, xf, dxf, enzyme_dup, wf, dwf, enzyme_dup, hf, dhf),
          ref_histf(N, xf, dxf, wf, dwf, hf, dhf));
  for (int i = 0; i < N; i++) want[i] = c[(int)(xf[i] * B)] * wf[i] * xf[i] / sqrt(1 + (double)xf[i] * xf[i]);
  check_allf("dxf", dxf, want, N, 1e-5);
  for (int i = 0; i < N; i++) want[i] = c[(int)(xf[i] * B)] * sqrt(1 + (double)xf[i] * xf[i]);
  check_allf("dwf", dwf, want, N, 1e-5);
  return check_finish();
}
