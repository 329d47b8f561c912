/* Work partitioned by hand with omp_get_thread_num() / omp_get_num_threads(): each thread takes
 * a contiguous block, writes its partial sum into a shared array, then after a barrier one
 * thread (single) combines the partial sums. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 101, MAXT = 64 };

__attribute__((noinline)) void f(int n, const double *x, double *y, double *partial, double *out) {
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = n * t / nt, hi = n * (t + 1) / nt;
    double s = 0;
    for (int i = lo; i < hi; i++) {
      y[i] = x[i] * x[i] * 0.5 + sin(x[i]);
      s += y[i] * x[i];
    }
    partial[t] = s;
#pragma omp barrier
#pragma omp single
    {
      double total = 0;
      for (int k = 0; k < nt; k++) total += partial[k];
      out[0] = total * total / n;
    }
  }
}

static double X[N], C[N], COUT = 0.7;
static double loss(void) {
  double y[N], partial[MAXT], out[1], s = 0;
  f(N, X, y, partial, out);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s + COUT * out[0];
}

#ifdef XZ_SELFCHECK
static void ref_f(int n, const double *x, double *dx, double *y, double *dy, double *partial, double *dpartial, double *out,
                  double *dout) {
  f(n, x, y, partial, out);
  double total = 0;
  for (int i = 0; i < n; i++) total += (x[i] * x[i] * 0.5 + sin(x[i])) * x[i];
  double sb = XZ_SEED * dout[0] * 2 * total / n;
  for (int i = 0; i < n; i++) {
    double yv = x[i] * x[i] * 0.5 + sin(x[i]), yb = XZ_SEED * dy[i] + sb * x[i];
    dx[i] += sb * yv + yb * (x[i] + cos(x[i]));
    dy[i] = 0;
  }
  for (int k = 0; k < MAXT; k++) dpartial[k] = 0;
  dout[0] = 0;
}
#endif

int main(void) {
  static double dx[N], y[N], dy[N], partial[MAXT], dpartial[MAXT];
  double out[1], dout[1] = {COUT};
  for (int i = 0; i < N; i++) {
    X[i] = cos(0.49 * i) - 0.3;
    dy[i] = C[i] = 1 + 0.2 * sin(0.8 * i);
  }
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_dup, partial, dpartial,
                            enzyme_dup, out, dout),
          ref_f(N, X, dx, y, dy, partial, dpartial, out, dout));
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_zero("dy", dy, N);
  check_zero("dpartial", dpartial, MAXT);
  check_zero("dout", dout, 1);
  return check_finish();
}
