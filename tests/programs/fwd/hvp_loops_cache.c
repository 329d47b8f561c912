/* Forward over reverse where the gradient caches values: a product loop, data-dependent
 * branches and a loop with a runtime trip count.  Forward mode differentiates the gradient's
 * cache buffers (realloc'd heap memory) and its adjoint slots like any other code.  Checked
 * against second differences of f itself (not of the gradient: a wrong reverse-mode rule
 * would be in both). */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

static double f(const double *x, int n) {
  double p = 1, s = 0;
  for (int i = 0; i < n; i++) {
    p *= 1 + 0.5 * sin(x[i]);
    if (x[i] > 0) s += p * x[i];
    else s -= exp(x[i]) * p;
  }
  int k = 0;
  double r = s;
  while (fabs(r) > 0.1 && k < 50) r *= 0.7 + 0.01 * x[k++ % n];
  return s * s + r;
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  enum { N = 7 };
  double x[N] = {0.4, -0.3, 1.1, -0.9, 0.2, 0.7, -0.5}, v[N] = {1, 0.5, -1, 0.25, 2, -0.5, 1}, g[N], hv[N], fd[N];
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, N);
  fd_hvp(f, x, v, N, fd);
  check_array("Hv", hv, fd, N, 1e-5);
  /* the primal output of the forward call is the gradient itself */
  fd_grad(f, x, N, fd);
  check_array("g", g, fd, N, 1e-7);
  return check_finish();
}
