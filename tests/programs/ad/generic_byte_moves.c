/* Generic C that moves doubles as bytes: a `void *` swap helper (not inlined) that memcpy's
 * through a char buffer, which LLVM turns into integer loads and stores, or inlines as a
 * shuffle of a vector of two integers; called with typed addresses (`&t[j]`) and with byte
 * offsets (`(char *)t + j * sizeof(double)`), in a bubble sort and a reversal.  The bytes are
 * known to be doubles from what the callers pass, so the derivative follows them. */
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 5 };

__attribute__((noinline)) static void swap(void *a, void *b, size_t size) {
  char tmp[64];
  memcpy(tmp, a, size);
  memcpy(a, b, size);
  memcpy(b, tmp, size);
}

static double sorted_typed(const double *x, int n) {
  double t[8];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i] - x[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j + 1 < n - i; j++)
      if (t[j] > t[j + 1]) swap(&t[j], &t[j + 1], sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * (i + 1);
  return s;
}

static double sorted_bytes(const double *x, int n) {
  double t[8];
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) * x[(i + 1) % n];
  char *base = (char *)t;
  for (int i = 0; i < n; i++)
    for (int j = 0; j + 1 < n - i; j++)
      if (t[j] > t[j + 1]) swap(base + j * sizeof(double), base + (j + 1) * sizeof(double), sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i] * (i + 2);
  return s;
}

static double reversed(const double *x, int n) {
  double t[8];
  for (int i = 0; i < n; i++) t[i] = exp(0.3 * x[i]);
  for (int i = 0, j = n - 1; i < j; i++, j--) swap(t + i, t + j, sizeof t[0]);
  double s = 0;
  for (int i = 0; i < n; i++) s = s * 0.5 + t[i] * (i + 1);
  return s;
}

static double (*current)(const double *, int);
static double through(const double *x) { return current(x, N); }

#define CHECK(f)                                                              \
  do {                                                                        \
    double x[N] = {0.3, -0.7, 1.1, 0.5, -0.2}, dx[N] = {0};                   \
    __enzyme_autodiff((void *)f, x, dx, N);                                   \
    current = f;                                                              \
    for (int i = 0; i < N; i++) check_close(#f, dx[i], fd_array(through, x, i), 1e-6); \
  } while (0)

int main(void) {
  CHECK(sorted_typed);
  CHECK(sorted_bytes);
  CHECK(reversed);
  return check_finish();
}
