/* Output arrays marked enzyme_dupnoneed (the primal output is not needed) and enzyme_dup: the
 * output shadows are the seeds and must be zero afterwards. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 8 };

static void softplus(const double *x, double *y, double *ysum, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    y[i] = log1p(exp(x[i])) * (1.0 + 0.1 * i);
    s += y[i];
  }
  *ysum = s;
}

static double W[N], WS = 0.7;
static double objective(const double *x) {
  double y[N], s;
  softplus(x, y, &s, N);
  double r = WS * s;
  for (int i = 0; i < N; i++) r += W[i] * y[i];
  return r;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N], s, ds = WS;
  for (int i = 0; i < N; i++) { x[i] = 0.4 * i - 1.5; W[i] = 0.5 + 0.1 * i; dy[i] = W[i]; }
  __enzyme_autodiff((void *)softplus, enzyme_const, x, enzyme_dupnoneed, y, dy, enzyme_dup, &s, &ds, enzyme_const, N);
  check_close("ds reset", ds, 0.0, 0.0);
  check_zero("dy", dy, N);
  /* x was const: compute its gradient in a second call with x duplicated. */
  for (int i = 0; i < N; i++) dy[i] = W[i];
  ds = WS;
  __enzyme_autodiff((void *)softplus, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy, enzyme_dup, &s, &ds, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dobj/dx", dx[i], fd_array(objective, x, i), 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
