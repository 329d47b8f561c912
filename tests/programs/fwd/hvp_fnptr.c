/* Second derivatives through a function pointer: forward mode over a gradient whose function
 * calls its integrand through a pointer taken from a constant table (the gradient holds the
 * dispatch among the candidates' augmented and reverse functions). */
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
static int K;
static double d_x(double x) { return dfdx(x, K); }
int main(void) {
  for (K = 0; K < 2; K++) {
    double x = 0.8, h = 1e-5;
    check_close("f_xx", __enzyme_fwddiff((void *)dfdx, x, 1.0, enzyme_const, K), (d_x(x + h) - d_x(x - h)) / (2 * h), 1e-6);
  }
  return check_finish();
}
