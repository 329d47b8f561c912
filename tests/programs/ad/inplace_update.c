/* A function that overwrites its own input, x[i] = g(x[i]), several times: the reverse sweep
 * needs the overwritten values, and the shadow of x ends up holding d(out)/d(x_in). */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 10 };

static void f(double *x, int n) {
  for (int pass = 0; pass < 3; pass++) {
    for (int i = 0; i < n; i++) x[i] = sin(x[i]) + 0.5 * x[i] * x[i];
    for (int i = 1; i < n; i++) x[i] += 0.3 * x[i - 1];
  }
}

static double W[N];
static double objective(const double *x0) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  f(x, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += W[i] * x[i];
  return s;
}

int main(void) {
  double x0[N], x[N], dx[N];
  for (int i = 0; i < N; i++) { x0[i] = 0.1 * i - 0.4; x[i] = x0[i]; W[i] = 1.0 + 0.5 * cos(i); dx[i] = W[i]; }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  double ref[N];
  for (int i = 0; i < N; i++) ref[i] = x0[i];
  f(ref, N);
  for (int i = 0; i < N; i++) check_close("primal output", x[i], ref[i], 1e-15);
  for (int i = 0; i < N; i++) check_close("d<w,f(x)>/dx", dx[i], fd_array(objective, x0, i), 1e-6);
  return check_finish();
}
