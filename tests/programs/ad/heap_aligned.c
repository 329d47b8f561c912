/* Aligned heap memory: posix_memalign (the pointer comes back through an out-parameter),
 * aligned_alloc, and a struct array from posix_memalign with int and double fields. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double with_posix_memalign(const double *x, int n) {
  double *t;
  if (posix_memalign((void **)&t, 64, n * sizeof(double)) != 0) return 0.0;
  for (int i = 0; i < n; i++) t[i] = x[i] * x[(i + 2) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += log(1.0 + t[i] * t[i]);
  free(t);
  return s;
}

static double with_aligned_alloc(const double *x, int n) {
  size_t bytes = ((n * sizeof(double) + 31) / 32) * 32;
  double *t = aligned_alloc(32, bytes);
  for (int i = 0; i < n; i++) t[i] = exp(-x[i] * x[i]);
  double s = 0;
  for (int i = 1; i < n; i++) s += t[i] * t[i - 1];
  free(t);
  return s;
}

struct cell {
  int tag;
  double w;
  long count;
  double v;
};

static double aligned_structs(const double *x, int n) {
  struct cell *c;
  if (posix_memalign((void **)&c, 32, n * sizeof(struct cell))) return 0.0;
  for (int i = 0; i < n; i++) {
    c[i].tag = i % 3;
    c[i].w = x[i] * 2.0;
    c[i].count = i;
    c[i].v = sin(x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += c[i].tag == 1 ? c[i].w * c[i].v : c[i].v * (double)c[i].count;
  free(c);
  return s;
}

/* __enzyme_autodiff needs the function itself (a constant), hence a macro. */
#define CHECK(f, x, n)                                                        \
  do {                                                                        \
    double dx[8] = {0};                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);         \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), 1e-6); \
  } while (0)

int main(void) {
  double x[7] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9, 0.6};
  CHECK(with_posix_memalign, x, 7);
  CHECK(with_aligned_alloc, x, 7);
  CHECK(aligned_structs, x, 7);
  return check_finish();
}
