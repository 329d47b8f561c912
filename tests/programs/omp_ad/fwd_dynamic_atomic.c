/* Forward mode through schedule(dynamic, 2), atomic updates (+= and -=) of a shared array whose
 * initial values carry tangents too, and a critical section keeping a running maximum. */
#include "omp_check.h"

extern void __enzyme_fwddiff(void *, ...);
enum { N = 117, NH = 5 };

__attribute__((noinline)) void f(int n, const double *x, double *h, double *best) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] + sin(x[i]);
#pragma omp atomic
    h[i % 4] += v;
#pragma omp atomic
    h[4] -= 0.5 * v * x[i];
#pragma omp critical
    {
      if (v > best[0]) best[0] = v;
    }
  }
}

static void eval(const double *x0, const double *h0, const double *vx, const double *vh, double eps, double *h, double *best) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i] + eps * vx[i];
  for (int b = 0; b < NH; b++) h[b] = h0[b] + eps * vh[b];
  best[0] = -1e300;
  f(N, x, h, best);
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *x, const double *dx, double *h, double *dh, double *best, double *dbest) {
  int k = -1;
  double bv = best[0];
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] + sin(x[i]), dv = XZ_SEED * dx[i] * (2 * x[i] + cos(x[i]));
    h[i % 4] += v;
    dh[i % 4] += dv;
    h[4] -= 0.5 * v * x[i];
    dh[4] -= 0.5 * (dv * x[i] + v * XZ_SEED * dx[i]);
    if (v > bv) bv = v, k = i;
  }
  best[0] = bv;
  if (k >= 0) dbest[0] = XZ_SEED * dx[k] * (2 * x[k] + cos(x[k]));
}
#endif

int main(void) {
  static double x[N], dx[N];
  double h0[NH] = {1, 2, 3, 4, 5}, vh[NH] = {0.5, -0.5, 1, 0, 2}, h[NH], dh[NH], best[1] = {-1e300}, dbest[1] = {0};
  double hp[NH], hm[NH], bp[1], bm[1], want[NH], eps = 1e-6;
  for (int i = 0; i < N; i++) {
    x[i] = 1.8 * sin(0.77 * i + 0.5) + 0.001 * i;
    dx[i] = xz_dir(i);
  }
  memcpy(h, h0, sizeof h);
  memcpy(dh, vh, sizeof dh);
  XZ_DIFF(__enzyme_fwddiff((void *)f, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, h, dh, enzyme_dup, best, dbest),
          ref_f(N, x, dx, h, dh, best, dbest));
  eval(x, h0, dx, vh, eps, hp, bp);
  eval(x, h0, dx, vh, -eps, hm, bm);
  for (int b = 0; b < NH; b++) want[b] = (hp[b] - hm[b]) / (2 * eps);
  check_all("dh", dh, want, NH, 1e-6);
  check_one("dbest", dbest[0], (bp[0] - bm[0]) / (2 * eps), 1e-6);
  return check_finish();
}
