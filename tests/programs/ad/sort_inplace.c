/* Sorting the input array in place (bubble sort with swaps through a temporary): the primal
 * array is permuted, and the shadow is permuted back so that each derivative lands at the
 * element's original position; then a weighted sum of the sorted values. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 12 };

static double f(double *x, int n) {
  for (int pass = 0; pass < n - 1; pass++)
    for (int i = 0; i < n - 1 - pass; i++)
      if (x[i] > x[i + 1]) {
        double t = x[i];
        x[i] = x[i + 1];
        x[i + 1] = t;
      }
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i] * x[i];
  return s;
}

static double fx(const double *x0) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  return f(x, N);
}

int main(void) {
  double x0[N], x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x0[i] = x[i] = cos(2.9 * i + 1.0);
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 1; i < N; i++) check_close("sorted", x[i] >= x[i - 1], 1.0, 0);
  for (int i = 0; i < N; i++) check_close("df/dx0", dx[i], fd_array(fx, x0, i), 1e-6);
  return check_finish();
}
