/* In-place pairwise transforms, halving n each round, written back through a local buffer:
 * with memcpy (its length changes from one round to the next), with an element loop (which
 * LLVM may turn into that memcpy, or into i64 copies of the doubles), and for a buffer of 8
 * and of 16 elements.  The output shadow is seeded, so dx = J^T dx_seed. */
#include "check.h"
#include <string.h>

extern void __enzyme_autodiff(void *, ...);

static void halve_memcpy(double *x, int n) {
  double t[16];
  while (n >= 2) {
    for (int i = 0; i < n / 2; i++) {
      t[i] = x[2 * i] + x[2 * i + 1];
      t[n / 2 + i] = x[2 * i] * x[2 * i + 1];
    }
    memcpy(x, t, n * sizeof(double));
    n /= 2;
  }
}

static void halve_loop(double *x, int n) {
  double t[16];
  while (n >= 2) {
    for (int i = 0; i < n / 2; i++) {
      t[i] = x[2 * i] + x[2 * i + 1];
      t[n / 2 + i] = sin(x[2 * i]) * x[2 * i + 1];
    }
    for (int i = 0; i < n; i++) x[i] = t[i];
    n /= 2;
  }
}

/* Weighted sum of the transformed vector, for finite differences: matches the seed below. */
static int N;
static double weighted(void (*t)(double *, int), const double *x) {
  double y[16], s = 0;
  memcpy(y, x, N * sizeof(double));
  t(y, N);
  for (int i = 0; i < N; i++) s += (i + 1) * y[i];
  return s;
}
static double w_memcpy(const double *x) { return weighted(halve_memcpy, x); }
static double w_loop(const double *x) { return weighted(halve_loop, x); }

#define CHECK(f, w, n)                                                                 \
  do {                                                                                 \
    N = n;                                                                             \
    double x[16], dx[16];                                                              \
    for (int i = 0; i < n; i++) x[i] = 0.9 - 0.13 * i + 0.05 * (i % 3);               \
    for (int i = 0; i < n; i++) dx[i] = i + 1;                                         \
    double x0[16];                                                                     \
    memcpy(x0, x, sizeof x0);                                                          \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                  \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array(w, x0, i), 1e-6);      \
  } while (0)

int main(void) {
  CHECK(halve_memcpy, w_memcpy, 8);
  CHECK(halve_memcpy, w_memcpy, 16);
  CHECK(halve_loop, w_loop, 8);
  CHECK(halve_loop, w_loop, 16);
  return check_finish();
}
