/* memcpy, memmove and memset on float arrays: a copy whose adjoint flows back to the source, an
 * overlapping shift, and a cleared region whose old adjoint must be dropped. */
#include <string.h>
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 16 };

static double f(const double *x, double *y, int n) {
  double tmp[N];
  memcpy(tmp, x, n * sizeof(double));
  for (int i = 0; i < n; i++) tmp[i] *= tmp[i];
  memmove(tmp + 2, tmp, (n - 2) * sizeof(double)); /* shift right by two, overlapping */
  memcpy(y, tmp, n * sizeof(double));
  memset(y + n / 2, 0, 3 * sizeof(double));        /* these entries lose their derivative */
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * y[i] * x[i];
  return s;
}

static double fx(const double *x) {
  double y[N];
  return f(x, y, N);
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.6;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
