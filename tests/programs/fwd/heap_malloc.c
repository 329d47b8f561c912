/* Heap memory inside the function: malloc, calloc, realloc and free get shadow blocks. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double f(const double *x, int n) {
  double *a = malloc(n * sizeof(double));
  double *b = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  for (int i = 1; i < n; i++) b[i] = b[i - 1] + a[i] * x[i - 1];
  a = realloc(a, 2 * n * sizeof(double));
  for (int i = 0; i < n; i++) a[n + i] = cos(b[i]) + a[i];
  double s = 0;
  for (int i = 0; i < 2 * n; i++) s += a[i] * (i % 3 + 1);
  free(a);
  free(b);
  return s;
}

int main(void) {
  double x[6] = {0.1, 0.5, -0.2, 0.9, 1.3, -0.7}, v[6] = {1, 0, 2, -1, 0.5, 1}, dx[6];
  for (int i = 0; i < 6; i++) dx[i] = v[i];
  check_close("df.v", __enzyme_fwddiff((void *)f, x, dx, 6), fd_dir(f, x, v, 6), 1e-6);
  return check_finish();
}
