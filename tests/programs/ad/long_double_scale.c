/* long double (x86 80-bit) arithmetic and libm (sinl, expl, sqrtl, logl, powl) returned through
 * a long double prototype, and the exact scalings ldexp, scalbn, scalbln with fmod. */
#include "check.h"

extern long double __enzyme_autodiff(void *, long double);
extern double __enzyme_autodiff_d(void *, ...);

static long double f(long double x) { return sinl(x) * expl(x) + sqrtl(x) * logl(x) + powl(x, 1.5L) / (1 + x * x); }
static double g(double x) { return fmod(x * x, 1.3) + ldexp(x, 3) * x + scalbn(x, -2) + scalbln(sin(x), 5); }
static double f_as_double(double x) { return (double)f(x); }

int main(void) {
  for (double x = 0.4; x < 2.0; x += 0.5) {
    check_close("df/dx (long double)", (double)__enzyme_autodiff((void *)f, (long double)x), fd1(f_as_double, x), 1e-6);
    check_close("dg/dx", __enzyme_autodiff_d((void *)g, x), fd1(g, x), 1e-6);
  }
  return check_finish();
}
