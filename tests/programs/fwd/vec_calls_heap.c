/* Vector mode through calls that are not inlined, a recursive helper and heap buffers: every
 * shadow comes in two, every shadow allocation too. */
#include "fwd.h"

typedef struct {
  double d[2];
} D2;
extern D2 __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double norm2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

__attribute__((noinline)) static double horner(const double *c, double x, int k) {
  return k == 0 ? c[0] : c[k] + x * horner(c, x, k - 1);
}

__attribute__((noinline)) double f(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = tanh(x[i]);
  double r = horner(t, norm2(x, n), n - 1) + log(1 + norm2(t, n));
  free(t);
  return r;
}

int main(void) {
  double x[5] = {0.2, -0.4, 0.6, 0.1, -0.3};
  double v1[5] = {1, 0, 0.5, 0, -1}, v2[5] = {0, 1, 0, 2, 0};
  D2 g = __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_dup, x, v1, v2, enzyme_const, 5);
  check_close("df.v1", g.d[0], fd_dir(f, x, v1, 5), 1e-6);
  check_close("df.v2", g.d[1], fd_dir(f, x, v2, 5), 1e-6);
  return check_finish();
}
