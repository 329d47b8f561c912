/* Nested loops with early exits, a data-dependent while loop (Newton's iteration). */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double t = a[i] * a[j];
      if (t > 4.0) break;
      s += sin(t) / (1 + j);
    }
    if (s > 50) return s;
  }
  /* sqrt(s) by Newton's method: the tangent follows the iteration */
  double r = s > 1 ? s : 1;
  int it = 0;
  while (fabs(r * r - s) > 1e-14 * s && it++ < 100) r = 0.5 * (r + s / r);
  return r;
}

int main(void) {
  double a[5] = {0.3, 1.1, -0.7, 1.9, 0.5}, v[5] = {1, 0.5, -1, 0.25, 2}, da[5];
  for (int i = 0; i < 5; i++) da[i] = v[i];
  check_close("df.v", __enzyme_fwddiff((void *)f, a, da, 5), fd_dir(f, a, v, 5), 1e-6);
  return check_finish();
}
