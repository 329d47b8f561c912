/* The Jacobian of a map R^4 -> R^4 in one call: enzyme_width 4 with the identity's columns as
 * the four input shadows; each output shadow receives one column. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);

void g(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  for (int i = 0; i < n; i++) y[i] = x[i] * exp(-s) + sin(x[(i + 1) % n]) * x[i];
}

int main(void) {
  double x[4] = {0.3, -0.5, 0.8, 0.1}, y[4];
  double e[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  double col[4][4];
  __enzyme_fwddiff((void *)g, enzyme_width, 4, enzyme_dup, x, e[0], e[1], e[2], e[3], enzyme_dupnoneed, y, col[0], col[1],
                   col[2], col[3], enzyme_const, 4);
  for (int j = 0; j < 4; j++) {
    double want[4];
    fd_map(g, x, e[j], 4, want, 4);
    check_array("J column", col[j], want, 4, 1e-6);
  }
  return check_finish();
}
