/* A loop over an array with a duplicated pointer argument: gradient accumulated into the shadow. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
#define N 37

static double f(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[i] * sin(x[i]) + 0.5 * x[i];
  return s;
}

int main(void) {
  double x[N], dx[N];
  for (int i = 0; i < N; i++) { x[i] = 0.1 * i - 1.3; dx[i] = 0; }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  for (int i = 0; i < N; i += 6) {
    char name[32];
    snprintf(name, sizeof name, "df/dx[%d]", i);
    check_close(name, dx[i], fd_array(f, x, i), 1e-6);
  }
  return check_finish();
}
