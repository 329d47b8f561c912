/* Forward mode through a generic `void *` swap (memcpy through a char buffer, not inlined),
 * called with typed addresses and with byte offsets, in a bubble sort of derived values. */
#include <string.h>
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);
enum { N = 5 };

__attribute__((noinline)) static void swap(void *a, void *b, size_t size) {
  char tmp[64];
  memcpy(tmp, a, size);
  memcpy(a, b, size);
  memcpy(b, tmp, size);
}

static double sorted(const double *x, int n) {
  double t[8];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i] - x[i] + 0.1 * i;
  char *base = (char *)t;
  for (int i = 0; i < n; i++)
    for (int j = 0; j + 1 < n - i; j++) {
      if (t[j] > t[j + 1]) swap(&t[j], &t[j + 1], sizeof(double));
      if (j % 2 && t[j] < t[j - 1]) swap(base + j * sizeof(double), base + (j - 1) * sizeof(double), sizeof(double));
    }
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * (i + 1) + t[i] * t[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5, -0.2}, v[N] = {1.0, 0.5, -0.75, 0.25, 2.0};
  check_close("sorted along v", __enzyme_fwddiff((void *)sorted, x, v, N), fd_dir(sorted, x, v, N), 1e-6);
  return check_finish();
}
