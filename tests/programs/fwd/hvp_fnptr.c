/* Second derivatives through a function pointer: forward mode over a gradient whose function
 * calls its integrand through a pointer taken from a constant table (the gradient holds the
 * dispatch among the candidates' augmented and reverse functions), checked against
 * differences of the function itself. */
#include "fwd.h"
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef double (*fn)(double);
__attribute__((noinline)) double sq(double x) { return x * x * sin(x); }
__attribute__((noinline)) double ex(double x) { return exp(0.5 * x) * x; }
static fn const T[2] = {sq, ex};
__attribute__((noinline)) double apply(fn g, double x) { return g(x) * g(2 * x); }
static double f(double x, int k) { return apply(T[k], x); }
double dfdx(double x, int k) { return __enzyme_autodiff((void *)f, x, enzyme_const, k); }
int main(void) {
  for (int k = 0; k < 2; k++) {
    double x = 0.8, h = 1e-4, e = 1e-6;
    /* references from f alone: a central first difference, a central second difference */
    check_close("f_x", dfdx(x, k), (f(x + e, k) - f(x - e, k)) / (2 * e), 1e-7);
    double fxx = (f(x + h, k) - 2 * f(x, k) + f(x - h, k)) / (h * h);
    check_close("f_xx", __enzyme_fwddiff((void *)dfdx, x, 1.0, enzyme_const, k), fxx, 1e-5);
  }
  return check_finish();
}
