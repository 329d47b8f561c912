/* Two phases in one region separated by an explicit barrier: an `omp for nowait` writes a
 * scratch array, the barrier, then an `omp for` reads its neighbours' entries (written by other
 * threads).  The reverse sweep needs the barrier between the phases too. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 111 };

__attribute__((noinline)) void phases(int n, const double *x, double *tmp, double *y) {
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++) tmp[i] = x[i] * x[i] + 1;
#pragma omp barrier
#pragma omp for
    for (int i = 1; i < n - 1; i++) y[i] = tmp[i - 1] * tmp[i + 1] - x[i] * tmp[i];
  }
}

static double X[N], C[N];
static double loss(void) {
  double tmp[N], y[N], s = 0;
  phases(N, X, tmp, y);
  for (int i = 1; i < N - 1; i++) s += C[i] * y[i];
  return s;
}

#ifdef XZ_SELFCHECK
static void ref_phases(int n, const double *x, double *dx, double *tmp, double *dtmp, double *y, double *dy) {
  phases(n, x, tmp, y);
  for (int i = 1; i < n - 1; i++) {
    double yb = XZ_SEED * dy[i];
    dtmp[i - 1] += yb * tmp[i + 1];
    dtmp[i + 1] += yb * tmp[i - 1];
    dtmp[i] -= yb * x[i];
    dx[i] -= yb * tmp[i];
    dy[i] = 0;
  }
  for (int i = 0; i < n; i++) {
    dx[i] += dtmp[i] * 2 * x[i];
    dtmp[i] = 0;
  }
}
#endif

int main(void) {
  static double dx[N], tmp[N], dtmp[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    X[i] = sin(0.53 * i) - 0.1;
    C[i] = 1 + 0.3 * cos(0.2 * i);
    dy[i] = i > 0 && i < N - 1 ? C[i] : 0;
  }
  XZ_DIFF(__enzyme_autodiff((void *)phases, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, tmp, dtmp, enzyme_dup, y, dy),
          ref_phases(N, X, dx, tmp, dtmp, y, dy));
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_zero("dtmp", dtmp, N);
  check_zero("dy", dy, N);
  return check_finish();
}
