/* Two Hessian columns at once: vector forward mode (width 2) over a gradient, checked against
 * second differences of f itself. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += log(1 + x[i] * x[i]) * x[(i + 1) % n] + 0.1 * pow(x[i], 4.0);
  return s;
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -0.6, 0.9, 1.4, -0.2};
  double e0[N] = {1, 0, 0, 0, 0}, e3[N] = {0, 0, 0, 1, 0}, g[N], h0[N], h3[N], fd[N];
  __enzyme_fwddiff((void *)grad, enzyme_width, 2, enzyme_dup, x, e0, e3, enzyme_dupnoneed, g, h0, h3, enzyme_const, N);
  fd_hvp(f, x, e0, N, fd);
  check_array("H e0", h0, fd, N, 1e-5);
  fd_hvp(f, x, e3, N, fd);
  check_array("H e3", h3, fd, N, 1e-5);
  return check_finish();
}
