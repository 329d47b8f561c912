/* Allocators the program registers with Enzyme's `__enzyme_allocation_like`: {allocator, index of
 * the size argument, the release function's arguments ("-1" the pointer, k the allocator's
 * argument k), release}.  The shadow of such memory comes from the same allocator and goes back
 * through the same release: the counters prove it, and the derivatives are checked as usual.
 *  - pool_alloc(tag, size, &counter), released by pool_release(&counter, ptr): "2,-1";
 *  - grab(size), released by drop(ptr): "-1", the size at index 0. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static long live, grabbed, made;

__attribute__((noinline)) void *pool_alloc(int tag, size_t size, long *counter) {
  (*counter)++;
  live++;
  made++;
  return malloc(size + tag * 0);
}
__attribute__((noinline)) void pool_release(long *counter, void *p) {
  (*counter)--;
  live--;
  free(p);
}
__attribute__((noinline)) void *grab(size_t size) {
  grabbed++;
  return calloc(1, size);
}
__attribute__((noinline)) void drop(void *p) {
  grabbed--;
  free(p);
}

void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"2,-1", (void *)pool_release};
void *__enzyme_allocation_like_grab[4] = {(void *)grab, (void *)0, (void *)"-1", (void *)drop};

static long counter;

static double pooled(const double *x, int n) {
  double *t = (double *)pool_alloc(3, n * sizeof(double), &counter);
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[n - 1 - i];
  pool_release(&counter, t);
  return s;
}

static double grabbed_twice(const double *x, int n) {
  double *a = (double *)grab(n * sizeof(double));
  double *b = (double *)grab(2 * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  b[0] = a[0] + a[1];
  b[1] = exp(a[n - 1]) * b[0];
  double r = b[1] - a[1] * b[0];
  drop(a);
  drop(b);
  return r;
}

int main(void) {
  double x[4] = {0.4, -0.9, 1.3, 0.2}, dx[4] = {0};
  __enzyme_autodiff((void *)pooled, enzyme_dup, x, dx, enzyme_const, 4);
  long made_by_gradient = made;
  for (int i = 0; i < 4; i++) check_close("pooled", dx[i], fd_array_n(pooled, x, 4, i), 1e-6);
  check_close("pool allocations: the buffer and its shadow", made_by_gradient, 2, 0);
  check_close("pool allocations all released (shadows too)", live, 0, 0);
  check_close("the counter passed to the release is the allocation's", counter, 0, 0);
  double dy[4] = {0};
  __enzyme_autodiff((void *)grabbed_twice, enzyme_dup, x, dy, enzyme_const, 4);
  for (int i = 0; i < 4; i++) check_close("grabbed_twice", dy[i], fd_array_n(grabbed_twice, x, 4, i), 1e-6);
  check_close("grabbed all dropped (shadows too)", grabbed, 0, 0);
  return check_finish();
}
