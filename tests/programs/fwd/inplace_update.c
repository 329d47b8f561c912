/* A function that overwrites its input: the shadow is updated in place the same way. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);

void step(double *x, int n) {
  for (int k = 0; k < 3; k++)
    for (int i = 1; i < n; i++) x[i] = x[i] + 0.1 * sin(x[i - 1]) * x[i];
}

static void step_map(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i];
  step(y, n);
}

int main(void) {
  double x[5] = {0.5, -0.2, 0.8, 1.5, 0.1}, v[5] = {1, 0.3, -0.5, 0.2, 1}, want[5], x0[5], dx[5];
  for (int i = 0; i < 5; i++) x0[i] = x[i], dx[i] = v[i];
  fd_map(step_map, x0, v, 5, want, 5);
  __enzyme_fwddiff((void *)step, enzyme_dup, x, dx, enzyme_const, 5);
  check_array("dx", dx, want, 5, 1e-6);
  return check_finish();
}
