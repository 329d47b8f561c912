/* fabsf, fminf, fmaxf, copysignf, fmaf, and floorf/ceilf/roundf/truncf (zero derivative). */
#include "check.h"

typedef struct { float da, db; } fgrad2;
typedef struct { float da, db, dc; } fgrad3;
extern float __enzyme_autodiff(void *, float);
extern fgrad2 __enzyme_autodiff_2(void *, float, float);
extern fgrad3 __enzyme_autodiff_3(void *, float, float, float);

static float f_fabs(float x) { return fabsf(x) * x; }
static float f_fmin(float a, float b) { return fminf(a, b) * 3.0f; }
static float f_fmax(float a, float b) { return fmaxf(a * a, b); }
static float f_copysign(float a, float b) { return copysignf(a, b); }
static float f_fma(float a, float b, float c) { return fmaf(a, b, c); }
static float f_round(float x) { return floorf(x) + ceilf(2 * x) + roundf(x * x) + truncf(-x) + x * floorf(x); }

int main(void) {
  static const float xs[] = {-1.3f, -0.4f, 0.6f, 2.2f};
  for (int k = 0; k < 4; k++) {
    float x = xs[k], y = 0.5f - 0.3f * k;
    check_close("fabsf'", __enzyme_autodiff((void *)f_fabs, x), 2 * fabsf(x), 1e-6);
    fgrad2 g = __enzyme_autodiff_2((void *)f_fmin, x, y);
    check_close("fminf/da", g.da, x < y ? 3.0 : 0.0, 0);
    check_close("fminf/db", g.db, x < y ? 0.0 : 3.0, 0);
    g = __enzyme_autodiff_2((void *)f_fmax, x, y);
    check_close("fmaxf/da", g.da, x * x > y ? 2 * x : 0.0, 1e-6);
    check_close("fmaxf/db", g.db, x * x > y ? 0.0 : 1.0, 0);
    g = __enzyme_autodiff_2((void *)f_copysign, x, y);
    check_close("copysignf/da", g.da, (x < 0) == (y < 0) ? 1.0 : -1.0, 0);
    check_close("copysignf/db", g.db, 0.0, 0);
    fgrad3 h = __enzyme_autodiff_3((void *)f_fma, x, y, 0.7f);
    check_close("fmaf/da", h.da, y, 0);
    check_close("fmaf/db", h.db, x, 0);
    check_close("fmaf/dc", h.dc, 1.0, 0);
    check_close("roundingf'", __enzyme_autodiff((void *)f_round, x), floorf(x), 0);
  }
  return check_finish();
}
