/* Doubles moved as integers, which the derivative must follow: the bits handed to a function
 * that is not inlined as an `unsigned long long` and stored into an integer buffer the caller
 * reads as doubles (also computed with there: the callee's copy that takes the double casts it
 * to the integer at entry, and the body back to the double); bits returned as an integer and turned back into a double by the caller; a
 * double stored into memory typed as integers and read back through a double pointer; a union. */
#include <stdint.h>
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) unsigned long long *store_bits(unsigned long long bits, unsigned long long tag) {
  unsigned long long *d = (unsigned long long *)malloc(2 * sizeof(unsigned long long));
  double f;
  memcpy(&f, &bits, sizeof f);
  *(double *)d = f;
  d[1] = tag;
  return d;
}

__attribute__((noinline)) unsigned long long *store_bits_scaled(unsigned long long bits, unsigned long long tag) {
  unsigned long long *d = (unsigned long long *)malloc(3 * sizeof(unsigned long long));
  double f;
  memcpy(&f, &bits, sizeof f);
  *(double *)d = f;
  d[1] = tag;
  *(double *)&d[2] = f * 0.5;
  return d;
}

__attribute__((noinline)) uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

__attribute__((noinline)) unsigned long long *int_buffer(int n) {
  return (unsigned long long *)calloc(n, sizeof(unsigned long long));
}

/* (Enzyme's subdoublestore) */
static double through_call(double x) {
  unsigned long long b;
  memcpy(&b, &x, sizeof b);
  unsigned long long *d = store_bits(b, 3);
  double r = ((double *)d)[0] * x;
  free(d);
  return r;
}

static double through_call_scaled(double x) {
  double y = sin(x);
  unsigned long long b;
  memcpy(&b, &y, sizeof b);
  unsigned long long *d = store_bits_scaled(b, 7);
  double r = ((double *)d)[0] * ((double *)d)[2]; /* sin(x)^2 / 2 */
  free(d);
  return r;
}

static double returned_bits(double x) {
  uint64_t u = bits_of(x * x);
  double y;
  memcpy(&y, &u, sizeof y);
  return y * sin(x);
}

static double integer_memory(double x) {
  unsigned long long *buf = int_buffer(4);
  uint64_t t;
  double sq = x * x;
  memcpy(&t, &sq, sizeof t);
  buf[1] = t;
  *(double *)&buf[2] = exp(x);
  double r = *(double *)&buf[1] + ((double *)buf)[2];
  free(buf);
  return r;
}

static double via_union(double x) {
  union { double d; unsigned long long u; } a, b;
  a.d = x * 3;
  b.u = a.u; /* copied as an integer */
  return b.d * x;
}

int main(void) {
  static const double xs[] = {-1.3, 0.4, 2.2};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    check_close("through_call", __enzyme_autodiff((void *)through_call, x), 2 * x, 1e-12);
    check_close("through_call_scaled", __enzyme_autodiff((void *)through_call_scaled, x), sin(x) * cos(x), 1e-12);
    check_close("returned_bits", __enzyme_autodiff((void *)returned_bits, x), fd1(returned_bits, x), 1e-6);
    check_close("integer_memory", __enzyme_autodiff((void *)integer_memory, x), 2 * x + exp(x), 1e-12);
    check_close("via_union", __enzyme_autodiff((void *)via_union, x), 6 * x, 1e-12);
  }
  return check_finish();
}
