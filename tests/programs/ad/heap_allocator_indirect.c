/* Heap memory whose allocation the differentiated code reaches indirectly: an allocator kept as
 * a function pointer in a global struct or in a static variable and called from a noinline
 * wrapper, a wrapper calling another wrapper, and a pointer returned through two calls.  Each
 * buffer needs a zeroed shadow of its own, which the wrapper's derivative must return. */
#include <string.h>

#include "check.h"

extern double __enzyme_autodiff(void *, ...);

struct allocator {
  int count;
  void *(*alloc)(size_t);
  void (*release)(void *);
};
struct allocator heap = {0, malloc, free};
static void *(*raw_alloc)(size_t) = malloc;

__attribute__((noinline)) void *heap_get(size_t n) { return heap.alloc(n); }
__attribute__((noinline)) void *raw_get(size_t n) { return raw_alloc(n); }
__attribute__((noinline)) double *doubles(size_t n) { return (double *)heap_get(n * sizeof(double)); }
__attribute__((noinline)) void square_in_place(double *p) { *p *= *p; }

/* The struct's allocator, through one wrapper, and an in-place update by another call. */
static double through_struct(const double *x, int n) {
  double *m = (double *)heap_get(sizeof(double));
  *m = x[0];
  square_in_place(m);
  double r = m[0] * x[1];
  heap.release(m);
  return r;
}

/* The static function pointer. */
static double through_static(const double *x, int n) {
  double *m = (double *)raw_get(2 * sizeof(double));
  m[0] = x[0] * x[1];
  m[1] = sin(x[2]);
  double r = m[0] * m[1];
  free(m);
  return r;
}

/* Two wrappers deep, an array filled in a loop and read back in another order. */
static double two_deep(const double *x, int n) {
  double *t = doubles(n);
  for (int i = 0; i < n; i++) t[i] = x[i] * x[(i + 1) % n];
  double s = 0;
  for (int i = n - 1; i >= 0; i--) s = s * 0.5 + exp(t[i]);
  free(t);
  return s;
}

/* The buffer outlives one call of the loop body: allocated once, reused each iteration. */
static double reused(const double *x, int n) {
  double *acc = (double *)raw_get(sizeof(double));
  memset(acc, 0, sizeof(double));
  for (int i = 0; i < n; i++) *acc += x[i] * x[i] * (i + 1);
  double r = sqrt(*acc);
  free(acc);
  return r;
}

#define CHECK(f, x, n)                                                                \
  do {                                                                                \
    double dx[8] = {0};                                                               \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                 \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), 1e-6); \
  } while (0)

int main(void) {
  double x[5] = {1.7, -0.6, 0.9, 0.35, -1.2};
  CHECK(through_struct, x, 5);
  CHECK(through_static, x, 5);
  CHECK(two_deep, x, 5);
  CHECK(reused, x, 5);
  return check_finish();
}
