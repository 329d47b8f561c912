/* A named critical section that adds into a shared sum and keeps a running maximum: the adjoint
 * of the sum reaches every element, that of the maximum only the element that held it. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 140 };

__attribute__((noinline)) void accumulate(int n, const double *x, double *out) {
  out[0] = 0;
  out[1] = -1e300;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = sin(x[i]) * x[i];
#pragma omp critical(accumulate)
    {
      out[0] += v * v;
      if (v > out[1]) out[1] = v;
    }
  }
}

static double X[N];
static double v(int i) { return sin(X[i]) * X[i]; }
static double dv(int i) { return cos(X[i]) * X[i] + sin(X[i]); }
static int argmax(void) {
  int k = 0;
  for (int i = 1; i < N; i++)
    if (v(i) > v(k)) k = i;
  return k;
}

#ifdef XZ_SELFCHECK
static void ref_accumulate(int n, const double *x, double *dx, double *out, double *dout) {
  accumulate(n, x, out);
  int k = argmax();
  for (int i = 0; i < n; i++) dx[i] += XZ_SEED * (dout[0] * 2 * v(i) * dv(i) + (i == k ? dout[1] * dv(i) : 0));
  dout[0] = dout[1] = 0;
}
#endif

int main(void) {
  static double dx[N], want[N];
  double out[2], dout[2] = {0.3, 2.0};
  for (int i = 0; i < N; i++) X[i] = 2.5 * sin(0.83 * i) + 0.003 * i;
  XZ_DIFF(__enzyme_autodiff((void *)accumulate, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, out, dout),
          ref_accumulate(N, X, dx, out, dout));
  int k = argmax();
  printf("argmax %d\n", k);
  for (int i = 0; i < N; i++) want[i] = 0.3 * 2 * v(i) * dv(i) + (i == k ? 2.0 * dv(i) : 0);
  check_all("dx", dx, want, N, 1e-13);
  check_zero("dout", dout, 2);
  return check_finish();
}
