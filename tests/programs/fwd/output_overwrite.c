/* Output arrays: their shadows receive the tangents, overwritten (not accumulated), also with
 * enzyme_dupnoneed. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);

void g(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[(i + 1) % n] + exp(-x[i]);
}

int main(void) {
  double x[4] = {0.1, 0.6, -0.4, 1.2}, v[4] = {1, -2, 0.5, 0.3}, y[4], dy[4], want[4];
  for (int i = 0; i < 4; i++) dy[i] = 123.0; /* garbage: must be overwritten */
  __enzyme_fwddiff((void *)g, enzyme_dup, x, v, enzyme_dup, y, dy, enzyme_const, 4);
  fd_map(g, x, v, 4, want, 4);
  check_array("dy", dy, want, 4, 1e-6);
  double y2[4] = {0}, dy2[4] = {-7, -7, -7, -7};
  __enzyme_fwddiff((void *)g, enzyme_dup, x, v, enzyme_dupnoneed, y2, dy2, enzyme_const, 4);
  check_array("dy (dupnoneed)", dy2, want, 4, 1e-6);
  return check_finish();
}
