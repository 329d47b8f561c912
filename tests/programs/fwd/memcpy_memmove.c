/* memcpy and memmove (overlapping) between active arrays, and a copy from a constant table. */
#include <string.h>
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);

static const double table[6] = {1.5, -2.0, 0.25, 3.0, 0.5, -1.0};

void g(const double *x, double *y, int n) {
  double w[12];
  memcpy(w, table, sizeof table);
  memcpy(w + 6, x, 6 * sizeof(double));
  memmove(w + 1, w, 10 * sizeof(double)); /* overlapping */
  for (int i = 0; i < n; i++) y[i] = w[i] * w[i + 6] + w[11 - i];
}

int main(void) {
  double x[6] = {0.3, -0.1, 0.7, 1.1, 0.2, -0.5}, v[6] = {1, 2, -1, 0.5, 0.25, 1}, y[6], dy[6], want[6];
  __enzyme_fwddiff((void *)g, enzyme_dup, x, v, enzyme_dupnoneed, y, dy, enzyme_const, 6);
  fd_map(g, x, v, 6, want, 6);
  check_array("dy", dy, want, 6, 1e-6);
  return check_finish();
}
