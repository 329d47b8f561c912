/* Second and third derivatives by reverse mode over reverse mode: a function that calls
 * __enzyme_autodiff is itself differentiated with __enzyme_autodiff.  The functions have loops
 * (caches), a call that is not inlined (a tape between split halves) and heap memory; checked
 * against closed forms.  __enzyme_iter(a, b) counts the derivatives taken: a + b in each
 * derivative of the code holding it, so a truncated series gains a term per derivative (the
 * reference below sums exactly the terms each level sees). */
#include <stdint.h>
#include "check.h"

extern double __enzyme_autodiff(void *, double);
uint64_t __enzyme_iter(uint64_t, uint64_t);

__attribute__((noinline)) double cube(double x) { return x * x * x; }

/* g(x) = x^3 e^x, with a loop and a heap buffer around it */
static double g(double x) {
  double *t = malloc(4 * sizeof(double));
  for (int i = 0; i < 4; i++) t[i] = (i == 3) ? cube(x) : 0.25 * exp(x);
  double s = 0;
  for (int i = 0; i < 3; i++) s += t[i];
  double r = t[3] * s * 4.0 / 3.0;
  free(t);
  return r;
}
static double dg(double x) { return __enzyme_autodiff((void *)g, x); }
static double ddg(double x) { return __enzyme_autodiff((void *)dg, x); }
static double dddg(double x) { return __enzyme_autodiff((void *)ddg, x); }

__attribute__((noinline)) uint64_t factorial(uint64_t n) { return n == 0 ? 1 : n * factorial(n - 1); }

static double series_sin(double x) {
  double r = 0;
  uint64_t terms = __enzyme_iter(9, 1);
  for (uint64_t i = 0; i <= terms; i++) {
    if (i % 2 == 0) continue;
    r += pow(x, (double)i) / (double)factorial(i) * (i % 4 == 1 ? 1 : -1);
  }
  return r;
}
static double d1(double x) { return __enzyme_autodiff((void *)series_sin, x); }
static double d2(double x) { return __enzyme_autodiff((void *)d1, x); }
static double d3(double x) { return __enzyme_autodiff((void *)d2, x); }

/* The k-th derivative of sum over odd i <= terms of (-1)^((i-1)/2) x^i / i! */
static double series_derivative(double x, int k, int terms) {
  double r = 0;
  for (int i = 1; i <= terms; i += 2) {
    if (i < k) continue;
    double c = (i % 4 == 1 ? 1.0 : -1.0), f = 1;
    for (int j = 1; j <= i; j++) f *= j;
    double falling = 1;
    for (int j = 0; j < k; j++) falling *= (i - j);
    r += c * falling * pow(x, i - k) / f;
  }
  return r;
}

int main(void) {
  static const double xs[] = {-0.8, 0.35, 1.2};
  for (int k = 0; k < 3; k++) {
    double x = xs[k], e = exp(x), x2 = x * x, x3 = x2 * x;
    check_close("g'", dg(x), (x3 + 3 * x2) * e, 1e-10);
    check_close("g''", ddg(x), (x3 + 6 * x2 + 6 * x) * e, 1e-10);
    check_close("g'''", dddg(x), (x3 + 9 * x2 + 18 * x + 6) * e, 1e-10);
    check_close("series", series_sin(x), series_derivative(x, 0, 9), 1e-12);
    check_close("series'", d1(x), series_derivative(x, 1, 10), 1e-12);
    check_close("series''", d2(x), series_derivative(x, 2, 11), 1e-12);
    check_close("series'''", d3(x), series_derivative(x, 3, 12), 1e-12);
  }
  return check_finish();
}
