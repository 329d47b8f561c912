/* An if(n > 40) clause: the region runs in parallel for a long array and on one thread (a
 * serialized region) for a short one; the derivative of each. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { NBIG = 90, NSMALL = 30 };

__attribute__((noinline)) double f(int n, const double *x, double *y) {
  double s = 0;
#pragma omp parallel for if (n > 40) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = exp(-x[i] * x[i]) + x[(i + 1) % n];
    s += y[i] * y[i];
  }
  return s;
}

static double X[NBIG];
static int NCUR;
static double loss(void) {
  double y[NBIG];
  return f(NCUR, X, y);
}

#ifdef XZ_SELFCHECK
static double ref_f(int n, const double *x, double *dx, double *y, double *dy) {
  f(n, x, y);
  for (int i = 0; i < n; i++) {
    double yb = dy[i] + XZ_SEED * 2 * y[i];
    dx[i] += yb * -2 * x[i] * exp(-x[i] * x[i]);
    dx[(i + 1) % n] += yb;
    dy[i] = 0;
  }
  return 0;
}
#endif

int main(void) {
  static double dx[NBIG], y[NBIG], dy[NBIG];
  for (int i = 0; i < NBIG; i++) X[i] = sin(0.81 * i) * 1.2;
  int sizes[2] = {NBIG, NSMALL};
  for (int c = 0; c < 2; c++) {
    int n = NCUR = sizes[c];
    memset(dx, 0, sizeof dx);
    XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, n, enzyme_dup, X, dx, enzyme_dup, y, dy), ref_f(n, X, dx, y, dy));
    check_fd(c == 0 ? "dx (parallel)" : "dx (serialized)", dx, X, n, loss, 1e-6);
    check_zero("dy", dy, n);
  }
  return check_finish();
}
