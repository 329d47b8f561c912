/* A loop left early by a data-dependent break, and a search loop that breaks at the first
 * element exceeding a threshold; the accumulated value flows out through the exit edge. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 30 };

static double f(const double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    s += x[i] * p;
    if (s > 6.0) break;
    p *= 0.9 + 0.05 * x[i];
  }
  int j = 0;
  while (j < n && x[j] < 1.2) j++;
  double tail = j < n ? x[j] * x[j] : 0;
  return s * s + tail + p;
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.9 * sin(0.7 * i);
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
