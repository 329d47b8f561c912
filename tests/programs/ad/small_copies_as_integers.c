/* Copies of 4 or 8 bytes between pointer arguments, which LLVM turns into one integer load and
 * store: one double, one float, two floats (one i64 whose halves are read back as floats), a
 * struct of two floats assigned, the copied value read back directly and through the
 * destination, a copy whose bits are also inspected, and a `void *` helper copying 8 bytes that
 * only doubles are given to (its bytes' type comes from its callers).  Each derivative must follow the
 * bytes, in reverse and in forward mode. */
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct { float a, b; } Pair;

/* One double memcpy'd; the copy read back. */
static double one_double(const double *x, double *c) {
  memcpy(c, x, sizeof(double));
  return c[0] * c[0] + sin(c[0]);
}

/* One float; then a second read of the destination after other work. */
static double one_float(const float *x, float *c) {
  memcpy(c, x, sizeof(float));
  float t = c[0] * 3.0f;
  return (double)t * c[0];
}

/* Two floats in one copy of 8 bytes. */
static double two_floats(const float *x, float *c) {
  memcpy(c, x, 2 * sizeof(float));
  return (double)c[0] * c[0] + 2.0 * c[1] * c[1] + c[0] * c[1];
}

/* A struct of two floats assigned as a whole. */
static double pair_assign(const float *x, float *c) {
  const Pair *p = (const Pair *)x;
  Pair *q = (Pair *)c;
  *q = *p;
  return (double)q->a * q->b + q->b;
}

/* The copied double's sign bit is tested as an integer as well. */
static double inspected(const double *x, double *c) {
  memcpy(c, x, sizeof(double));
  unsigned long long bits;
  memcpy(&bits, c, sizeof bits);
  double s = (bits >> 63) ? -c[0] : c[0];
  return s * c[0] * 1.5;
}

/* (Not static: -O3 would pass the bytes as an integer argument, which is an error.) */
__attribute__((noinline)) void copy8(void *dst, const void *src) { memcpy(dst, src, 8); }

/* The helper's copy into the destination. */
static double helper_copy(const double *x, double *c) {
  copy8(c, x);
  return c[0] * c[0] + sin(c[0]);
}

#define FD(f, T, x, c, i, h)                                         \
  ({                                                                 \
    T save_ = x[i];                                                  \
    x[i] = save_ + (h); double up_ = f(x, c);                        \
    x[i] = save_ - (h); double down_ = f(x, c);                      \
    x[i] = save_; (up_ - down_) / (2 * (h));                         \
  })

#define CHECK_PAIR(f, T, n, tol, h)                                             \
  do {                                                                          \
    T x[2] = {(T)0.3, (T)-0.7}, dx[2] = {0}, c[2] = {0}, dc[2] = {0};           \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, c, dc);         \
    for (int i = 0; i < (n); i++) {                                             \
      check_close(#f " reverse", dx[i], FD(f, T, x, c, i, h), tol);             \
      T v[2] = {0}, dc2[2] = {0};                                               \
      v[i] = 1;                                                                 \
      check_close(#f " forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, v,  \
                                                  enzyme_dup, c, dc2),          \
                  FD(f, T, x, c, i, h), tol);                                   \
    }                                                                           \
  } while (0)

int main(void) {
  CHECK_PAIR(one_double, double, 1, 1e-6, 1e-6);
  CHECK_PAIR(inspected, double, 1, 1e-6, 1e-6);
  CHECK_PAIR(helper_copy, double, 1, 1e-6, 1e-6);
  CHECK_PAIR(one_float, float, 1, 2e-3, 1e-2f);
  CHECK_PAIR(two_floats, float, 2, 2e-3, 1e-2f);
  CHECK_PAIR(pair_assign, float, 2, 2e-3, 1e-2f);
  return check_finish();
}
