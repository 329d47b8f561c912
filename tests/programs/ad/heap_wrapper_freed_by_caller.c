/* Heap memory that a function allocates and returns, freed by its caller: the shadow the
 * wrapper's derivative allocates and returns must be freed by the caller's derivative after
 * its last use (the sanitizer run checks that none leaks).  The allocator is reached through a
 * global function pointer, so the wrappers' results are not known to be fresh memory from
 * their attributes; shapes: a wrapper that fills the buffer from the input (its reverse reads
 * the shadow), one that calls another and picks one of two allocations, a calloc'd buffer,
 * an allocation and release in every iteration of a loop, and a buffer passed to a function
 * that frees it. */
#include <string.h>

#include "check.h"

extern double __enzyme_autodiff(void *, ...);

void *(*allocate)(size_t) = malloc;

__attribute__((noinline)) double *filled(const double *x, int n) {
  double *t = (double *)allocate(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = x[i] * x[(i + 2) % n];
  return t;
}

__attribute__((noinline)) double *buffer(size_t n) { return (double *)allocate(n * sizeof(double)); }

__attribute__((noinline)) double *either(size_t n, int big) {
  double *a = buffer(big ? 2 * n : n);
  return a;
}

__attribute__((noinline)) double *zeroed(size_t n) {
  double *z = (double *)allocate(n * sizeof(double));
  memset(z, 0, n * sizeof(double));
  return z;
}

__attribute__((noinline)) double drain(double *t, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i];
  free(t);
  return s;
}

/* Filled by the wrapper from x, read back here, freed here. */
static double products(const double *x, int n) {
  double *t = filled(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(t[i]) * (i + 1);
  free(t);
  return s;
}

/* Two wrappers deep, the size chosen at run time. */
static double chosen(const double *x, int n) {
  double *t = either(n, n > 3);
  for (int i = 0; i < n; i++) t[i] = exp(0.3 * x[i]);
  double s = 1;
  for (int i = 0; i < n; i++) s *= 1 + t[i] * t[n - 1 - i];
  free(t);
  return log(s);
}

/* A zeroed accumulator, added to in place. */
static double accumulated(const double *x, int n) {
  double *acc = zeroed(3);
  for (int i = 0; i < n; i++) acc[i % 3] += x[i] * x[i] * x[i];
  double r = sqrt(acc[0] * acc[0] + acc[1] * acc[1] + acc[2] * acc[2] + 1.0);
  free(acc);
  return r;
}

/* A buffer allocated and freed in each iteration. */
static double per_iteration(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *t = buffer(2);
    t[0] = x[i];
    t[1] = cos(x[i]) * s;
    s += t[0] * t[1] + t[0];
    free(t);
  }
  return s;
}

/* Filled here, freed by the function that reads it last. */
static double handed_on(const double *x, int n) {
  double *t = buffer(n);
  for (int i = 0; i < n; i++) t[i] = x[i] * (i - 1.5);
  return drain(t, n);
}

#define CHECK(f, x, n)                                                                \
  do {                                                                                \
    double dx[8] = {0};                                                               \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                 \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), 1e-6); \
  } while (0)

int main(void) {
  double x[5] = {0.7, -1.3, 0.45, 1.1, -0.2};
  for (int n = 3; n <= 5; n += 2) {
    CHECK(products, x, n);
    CHECK(chosen, x, n);
    CHECK(accumulated, x, n);
    CHECK(per_iteration, x, n);
    CHECK(handed_on, x, n);
  }
  return check_finish();
}
