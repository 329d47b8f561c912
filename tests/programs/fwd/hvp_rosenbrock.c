/* A Hessian-vector product, forward over reverse: __enzyme_fwddiff of a function that calls
 * __enzyme_autodiff.  Checked against the exact Hessian of the Rosenbrock function and second
 * differences of the function itself. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

static double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n - 1; i++) s += 100 * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) + (1 - x[i]) * (1 - x[i]);
  return s;
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  enum { N = 6 };
  double x[N] = {-1.2, 1.0, 0.5, 0.8, -0.3, 1.1}, v[N] = {1, -0.5, 0.25, 2, 0, -1}, g[N], hv[N];
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dupnoneed, g, hv, enzyme_const, N);
  /* exact Hessian of the Rosenbrock function times v */
  double want[N] = {0};
  for (int i = 0; i < N - 1; i++) {
    double hii = 1200 * x[i] * x[i] - 400 * x[i + 1] + 2, hij = -400 * x[i];
    want[i] += hii * v[i] + hij * v[i + 1];
    want[i + 1] += hij * v[i] + 200 * v[i + 1];
  }
  check_array("Hv exact", hv, want, N, 1e-10);
  double fd[N];
  fd_hvp(rosen, x, v, N, fd);
  check_array("Hv fd", hv, fd, N, 1e-5);
  return check_finish();
}
