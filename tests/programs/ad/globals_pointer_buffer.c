/* Work buffers reached through global pointers: `work`, initialised to a static array (its
 * shadow is that array's), and `spare`, pointed by the function itself at heap memory it
 * allocates (its shadow is the allocation's, stored beside it).  memcpy of the input into them,
 * reads and in-place updates through the globals, which the function loads again after each
 * copy (the copy might have changed the global itself), and a memmove within one.  The type of
 * the copied bytes is found from the accesses through any load of the same global. */
#include <string.h>
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 5 };

static double storage[16];
double *work = storage;
double *spare;
struct workspace {
  int n;
  double *buf; /* (at offset 8: loads of it go through an address into the global) */
} ws;

static double f(const double *x, int n) {
  spare = malloc(16 * sizeof(double));
  ws.n = n;
  ws.buf = calloc(n, sizeof(double));
  memcpy(work, x, n * sizeof(double));
  for (int i = 0; i < n; i++) work[i] = sin(work[i]) + x[(i + 1) % n] * work[i];
  memmove(work + 1, work, (n - 1) * sizeof(double));
  memcpy(spare, work, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += spare[i] * spare[i] * (i + 1) + work[i];
  for (int i = 0; i < ws.n; i++) ws.buf[i] += work[(i + 2) % n] * x[i];
  for (int i = 0; i < ws.n; i++) s += tanh(ws.buf[i]);
  free(ws.buf);
  free(spare);
  return s;
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N] = {0.3, -0.8, 1.2, 0.45, -0.1}, dx[N] = {0};
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
