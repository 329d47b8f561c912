/* Forward mode of a region partitioned by hand with omp_get_thread_num() /
 * omp_get_num_threads(), per-thread partial sums in a shared array, a barrier and a single that
 * combines them; num_threads(3) on a second region. */
#include "omp_check.h"

extern void __enzyme_fwddiff(void *, ...);
enum { N = 97, MAXT = 64 };

__attribute__((noinline)) void f(int n, const double *x, double *y, double *partial, double *out) {
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = n * t / nt, hi = n * (t + 1) / nt;
    double s = 0;
    for (int i = lo; i < hi; i++) {
      y[i] = x[i] * exp(-0.5 * x[i] * x[i]);
      s += y[i];
    }
    partial[t] = s;
#pragma omp barrier
#pragma omp single
    {
      double total = 0;
      for (int k = 0; k < nt; k++) total += partial[k];
      out[0] = total * total;
    }
  }
#pragma omp parallel num_threads(3)
  {
    int t = omp_get_thread_num();
    for (int i = t; i < n; i += 3) y[i] *= 1 + out[0] * 0.01;
  }
}

static void eval(const double *x0, const double *v, double eps, double *y, double *out) {
  double x[N], partial[MAXT];
  for (int i = 0; i < N; i++) x[i] = x0[i] + eps * v[i];
  f(N, x, y, partial, out);
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *x, const double *dx, double *y, double *dy, double *partial, double *dpartial,
                  double *out, double *dout) {
  double total = 0, dtotal = 0;
  f(n, x, y, partial, out);
  for (int i = 0; i < n; i++) {
    double e = exp(-0.5 * x[i] * x[i]);
    total += x[i] * e;
    dtotal += XZ_SEED * dx[i] * e * (1 - x[i] * x[i]);
  }
  dout[0] = 2 * total * dtotal;
  for (int i = 0; i < n; i++) {
    double e = exp(-0.5 * x[i] * x[i]), yi = x[i] * e, dyi = XZ_SEED * dx[i] * e * (1 - x[i] * x[i]);
    dy[i] = dyi * (1 + out[0] * 0.01) + yi * dout[0] * 0.01;
  }
  (void)dpartial;
}
#endif

int main(void) {
  static double x[N], dx[N], y[N], dy[N], partial[MAXT], dpartial[MAXT], yp[N], ym[N], want[N];
  double out[1], dout[1] = {0}, op[1], om[1], h = 1e-6;
  for (int i = 0; i < N; i++) {
    x[i] = 2 * sin(0.31 * i);
    dx[i] = xz_dir(i);
  }
  XZ_DIFF(__enzyme_fwddiff((void *)f, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, partial, dpartial,
                           enzyme_dup, out, dout),
          ref_f(N, x, dx, y, dy, partial, dpartial, out, dout));
  eval(x, dx, h, yp, op);
  eval(x, dx, -h, ym, om);
  check_one("dout", dout[0], (op[0] - om[0]) / (2 * h), 1e-6);
  for (int i = 0; i < N; i++) want[i] = (yp[i] - ym[i]) / (2 * h);
  check_all("dy", dy, want, N, 1e-6);
  return check_finish();
}
