/* Data-dependent control flow: an insertion sort and min/max selections follow the primal's
 * choices, so the tangents are permuted along with the values. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);

void sorted_map(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] - x[i];
  for (int i = 1; i < n; i++) {
    double v = y[i];
    int j = i - 1;
    while (j >= 0 && y[j] > v) {
      y[j + 1] = y[j];
      j--;
    }
    y[j + 1] = v;
  }
  double lo = y[0], hi = y[n - 1];
  for (int i = 0; i < n; i++) y[i] = (y[i] - lo) / (hi - lo + 1.0) + fmin(y[i], 0.1) + fmax(y[i], 0.2);
}

int main(void) {
  double x[6] = {0.9, -0.4, 1.7, 0.05, 2.3, -1.1}, v[6] = {1, 2, 0.5, -1, 0.25, 1}, y[6], dy[6], want[6];
  __enzyme_fwddiff((void *)sorted_map, enzyme_dup, x, v, enzyme_dupnoneed, y, dy, enzyme_const, 6);
  fd_map(sorted_map, x, v, 6, want, 6);
  check_array("dy", dy, want, 6, 1e-6);
  return check_finish();
}
