/* sqrtf, cbrtf, powf, __builtin_powif and hypotf in single precision, exact derivatives in
 * double; two float derivatives come back as a struct of two floats. */
#include "check.h"

typedef struct { float da, db; } fgrad2;
extern float __enzyme_autodiff(void *, float);
extern float __enzyme_autodiff_i(void *, float, int);
extern fgrad2 __enzyme_autodiff_2(void *, float, float);

static float f_sqrt(float x) { return sqrtf(x); }
static float f_cbrt(float x) { return cbrtf(x); }
static float f_pow(float a, float b) { return powf(a, b); }
static float f_powi(float x, int n) { return __builtin_powif(x, n); }
static float f_hypot(float a, float b) { return hypotf(a, b); }

int main(void) {
  static const float xs[] = {0.35f, 1.3f, 4.2f};
  for (int k = 0; k < 3; k++) {
    float xf = xs[k], yf = 1.7f - 0.3f * k;
    double x = xf, y = yf;
    check_close("sqrtf'", __enzyme_autodiff((void *)f_sqrt, xf), 0.5 / sqrt(x), 1e-6);
    check_close("cbrtf'", __enzyme_autodiff((void *)f_cbrt, xf), 1.0 / (3.0 * cbrt(x) * cbrt(x)), 1e-6);
    fgrad2 g = __enzyme_autodiff_2((void *)f_pow, xf, yf);
    check_close("powf/da", g.da, y * pow(x, y - 1), 1e-6);
    check_close("powf/db", g.db, pow(x, y) * log(x), 1e-6);
    for (int n = -2; n <= 3; n++)
      check_close("powif'", __enzyme_autodiff_i((void *)f_powi, xf, n), n * __builtin_powi(x, n - 1), 1e-6);
    g = __enzyme_autodiff_2((void *)f_hypot, xf, yf);
    check_close("hypotf/da", g.da, x / hypot(x, y), 1e-6);
    check_close("hypotf/db", g.db, y / hypot(x, y), 1e-6);
  }
  return check_finish();
}
