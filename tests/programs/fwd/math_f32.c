/* Single precision: a prototype with float parameters keeps the floats from being promoted. */
#include "fwd.h"

extern float __enzyme_fwddiff(void *, float, float, float, float);

float f(float x, float y) { return sinf(x) * expf(y) + sqrtf(x * y) + powf(x, y) + logf(1.0f + x * x) / y; }

int main(void) {
  float x = 0.8f, y = 1.3f, h = 1e-3f;
  float dx = __enzyme_fwddiff((void *)f, x, 1.0f, y, 0.0f);
  float dy = __enzyme_fwddiff((void *)f, x, 0.0f, y, 1.0f);
  check_close("df/dx", dx, (f(x + h, y) - f(x - h, y)) / (2 * h), 2e-3);
  check_close("df/dy", dy, (f(x, y + h) - f(x, y - h)) / (2 * h), 2e-3);
  return check_finish();
}
