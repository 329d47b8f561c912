/* Forward mode through work buffers reached by global pointers: one initialised to a static
 * array (its tangent is that array's), one the function points at memory it allocates; memcpy
 * into them and updates through the globals, loaded again after each copy. */
#include <string.h>
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);
enum { N = 4 };

static double storage[8];
double *work = storage;
double *spare;

static double f(const double *x, int n) {
  spare = malloc(8 * sizeof(double));
  memcpy(work, x, n * sizeof(double));
  for (int i = 0; i < n; i++) work[i] = cos(work[i]) * x[(i + 1) % n];
  memcpy(spare, work, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += spare[i] * work[(i + 2) % n] + exp(0.3 * spare[i]);
  free(spare);
  return s;
}

int main(void) {
  double x[N] = {0.35, -0.6, 1.1, 0.25}, v[N] = {1.0, -0.5, 0.3, 2.0};
  check_close("f along v", __enzyme_fwddiff((void *)f, x, v, N), fd_dir(f, x, v, N), 1e-6);
  return check_finish();
}
