/* sinh, cosh, tanh, erf, erfc in double and float precision against exact derivatives. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern float __enzyme_autodiff_f(void *, float);

static double f_sinh(double x) { return sinh(x); }
static double f_cosh(double x) { return cosh(x); }
static double f_tanh(double x) { return tanh(x); }
static double f_erf(double x) { return erf(x); }
static double f_erfc(double x) { return erfc(x); }
static float g_sinh(float x) { return sinhf(x); }
static float g_cosh(float x) { return coshf(x); }
static float g_tanh(float x) { return tanhf(x); }
static float g_erf(float x) { return erff(x); }
static float g_erfc(float x) { return erfcf(x); }
static double all(double x) { return sinh(x) * erf(x) + cosh(0.5 * x) / (1 + erfc(x)) - tanh(x * x); }

int main(void) {
  static const double xs[] = {-1.3, 0.25, 1.6};
  const double k2 = 2.0 / sqrt(M_PI);
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    check_close("sinh'", __enzyme_autodiff((void *)f_sinh, x), cosh(x), 1e-12);
    check_close("cosh'", __enzyme_autodiff((void *)f_cosh, x), sinh(x), 1e-12);
    check_close("tanh'", __enzyme_autodiff((void *)f_tanh, x), 1 - tanh(x) * tanh(x), 1e-12);
    check_close("erf'", __enzyme_autodiff((void *)f_erf, x), k2 * exp(-x * x), 1e-12);
    check_close("erfc'", __enzyme_autodiff((void *)f_erfc, x), -k2 * exp(-x * x), 1e-12);
    check_close("all'", __enzyme_autodiff((void *)all, x), fd1(all, x), 1e-6);
    float xf = (float)x;
    double d = xf;
    check_close("sinhf'", __enzyme_autodiff_f((void *)g_sinh, xf), cosh(d), 1e-6);
    check_close("coshf'", __enzyme_autodiff_f((void *)g_cosh, xf), sinh(d), 1e-6);
    check_close("tanhf'", __enzyme_autodiff_f((void *)g_tanh, xf), 1 - tanh(d) * tanh(d), 1e-6);
    check_close("erff'", __enzyme_autodiff_f((void *)g_erf, xf), k2 * exp(-d * d), 1e-6);
    check_close("erfcf'", __enzyme_autodiff_f((void *)g_erfc, xf), -k2 * exp(-d * d), 1e-6);
  }
  return check_finish();
}
