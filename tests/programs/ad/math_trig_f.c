/* sinf, cosf, tanf, asinf, acosf, atanf, atan2f: single precision, exact derivatives in double;
 * atan2f returns two float derivatives (coerced to <2 x float> by the C ABI). */
#include "check.h"

typedef struct { float dy, dx; } fgrad2;
extern float __enzyme_autodiff(void *, float);
extern fgrad2 __enzyme_autodiff_2(void *, float, float);

static float f_sin(float x) { return sinf(x); }
static float f_cos(float x) { return cosf(x); }
static float f_tan(float x) { return tanf(x); }
static float f_asin(float x) { return asinf(x); }
static float f_acos(float x) { return acosf(x); }
static float f_atan(float x) { return atanf(x); }
static float f_atan2(float y, float x) { return atan2f(y, x); }

int main(void) {
  static const float xs[] = {-0.8f, 0.2f, 0.9f};
  for (int k = 0; k < 3; k++) {
    float x = xs[k];
    double d = x;
    check_close("sinf'", __enzyme_autodiff((void *)f_sin, x), cos(d), 1e-6);
    check_close("cosf'", __enzyme_autodiff((void *)f_cos, x), -sin(d), 1e-6);
    check_close("tanf'", __enzyme_autodiff((void *)f_tan, x), 1 / (cos(d) * cos(d)), 1e-6);
    check_close("asinf'", __enzyme_autodiff((void *)f_asin, x), 1 / sqrt(1 - d * d), 1e-6);
    check_close("acosf'", __enzyme_autodiff((void *)f_acos, x), -1 / sqrt(1 - d * d), 1e-6);
    check_close("atanf'", __enzyme_autodiff((void *)f_atan, x), 1 / (1 + d * d), 1e-6);
    float y = 0.7f - x;
    double yd = y;
    fgrad2 g = __enzyme_autodiff_2((void *)f_atan2, y, x);
    check_close("atan2f/dy", g.dy, d / (d * d + yd * yd), 1e-6);
    check_close("atan2f/dx", g.dx, -yd / (d * d + yd * yd), 1e-6);
  }
  return check_finish();
}
