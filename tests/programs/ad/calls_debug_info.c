// CFLAGS: -g
/* Compiled with debug information: non-inlined callees with locals whose stores carry
 * assignment-tracking metadata (DIAssignID at -O2), copied into the generated derivative
 * functions, which have no debug records of their own. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) void put(double *o, double v) { *o = v * v; }
__attribute__((noinline)) double h(double x) {
  double t;
  put(&t, x);
  double u[2];
  put(&u[0], t);
  put(&u[1], x);
  return t * x + u[0] * u[1];
}
static double g(double x) { return h(x) * 2; }

__attribute__((noinline)) void smooth(double *y, const double *x, int n) {
  double window[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    window[i % 3] = x[i];
    y[i] = (window[0] + window[1] + window[2]) * x[i] / 3.0;
  }
}
static double energy(const double *x) {
  double y[6];
  smooth(y, x, 6);
  double s = 0;
  for (int i = 0; i < 6; i++) s += y[i] * y[i];
  return s;
}

int main(void) {
  double x = 1.3;
  /* g(x) = 2 (x^3 + x^6) */
  check_close("g'(1.3)", __enzyme_autodiff((void *)g, x), 2 * (3 * x * x + 6 * pow(x, 5)), 1e-12);
  double v[6] = {0.4, -1.1, 0.7, 1.9, -0.3, 0.8}, dv[6] = {0};
  __enzyme_autodiff((void *)energy, v, dv);
  for (int i = 0; i < 6; i++) check_close("d energy / d v[i]", dv[i], fd_array(energy, v, i), 1e-6);
  return check_finish();
}
