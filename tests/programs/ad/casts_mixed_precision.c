/* fpext, fptrunc and sitofp: a double function that computes partly in float, and an integer
 * argument converted to floating point (the integer itself stays inactive). */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double f(double x, int k) {
  float xf = (float)x;                 /* fptrunc */
  float t = xf * xf + 0.5f * xf;       /* float arithmetic */
  double back = (double)t;             /* fpext */
  double kd = (double)k;               /* sitofp: no derivative */
  double u = (double)(k * k + 3);      /* integer arithmetic, inactive */
  return back * kd + x * u + (double)(float)(x * 0.25) * x;
}

/* Exact derivative with the float roundings of the primal (derivative of a rounding is 1). */
static double dfdx(double x, int k) {
  float xf = (float)x;
  double dt = 2.0 * (double)xf + 0.5;
  return dt * k + (k * k + 3) + 0.25 * x + (double)(float)(x * 0.25);
}

int main(void) {
  for (int k = -2; k <= 3; k++) {
    double x = 0.3 + 0.41 * k;
    double d = __enzyme_autodiff((void *)f, x, k);
    check_close("df/dx", d, dfdx(x, k), 1e-6);
  }
  return check_finish();
}
