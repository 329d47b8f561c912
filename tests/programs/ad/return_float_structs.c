/* Float derivatives returned as structs: two floats (the C ABI coerces them to <2 x float>),
 * three floats ({<2 x float>, float}), four floats (two <2 x float>), and a float with a double
 * (mixed types), all through non-variadic prototypes. */
#include "check.h"

typedef struct { float a, b; } f2;
typedef struct { float a, b, c; } f3;
typedef struct { float a, b, c, d; } f4;
typedef struct { float a; double b; } fd;
extern f2 __enzyme_autodiff_f2(void *, float, float);
extern f3 __enzyme_autodiff_f3(void *, float, float, float);
extern f4 __enzyme_autodiff_f4(void *, float, float, float, float);
extern fd __enzyme_autodiff_fd(void *, float, double);

static float g2(float x, float y) { return x * x * y - 3.0f * y; }
static float g3(float x, float y, float z) { return x * y + y * z * z - x / z; }
static float g4(float x, float y, float z, float w) { return x * y * z * w + sinf(w); }
static float gm(float x, double y) { return x * (float)(y * y); }

int main(void) {
  float x = 0.75f, y = -1.25f, z = 2.0f, w = 0.5f;
  f2 r2 = __enzyme_autodiff_f2((void *)g2, x, y);
  check_close("g2/dx", r2.a, 2 * x * y, 1e-6);
  check_close("g2/dy", r2.b, x * x - 3, 1e-6);
  f3 r3 = __enzyme_autodiff_f3((void *)g3, x, y, z);
  check_close("g3/dx", r3.a, y - 1 / z, 1e-6);
  check_close("g3/dy", r3.b, x + z * z, 1e-6);
  check_close("g3/dz", r3.c, 2 * y * z + x / (z * z), 1e-6);
  f4 r4 = __enzyme_autodiff_f4((void *)g4, x, y, z, w);
  check_close("g4/dx", r4.a, y * z * w, 1e-6);
  check_close("g4/dy", r4.b, x * z * w, 1e-6);
  check_close("g4/dz", r4.c, x * y * w, 1e-6);
  check_close("g4/dw", r4.d, x * y * z + cos(w), 1e-6);
  fd rm = __enzyme_autodiff_fd((void *)gm, x, 1.5);
  check_close("gm/dx", rm.a, 2.25, 1e-6);
  check_close("gm/dy", rm.b, x * 3.0, 1e-6);
  return check_finish();
}
