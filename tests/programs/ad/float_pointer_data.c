/* Float arrays through duplicated pointers: a float loss over float data, with float
 * accumulation in a loop, a double accumulator mixed in (fpext), and a float output array. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 24 };

static float f(const float *x, const float *w, float *y, int n) {
  double acc = 0;
  float facc = 0;
  for (int i = 0; i < n; i++) {
    float t = x[i] * w[i] - 0.5f * x[i] * x[i];
    y[i] = t * t;
    facc += t;
    acc += (double)y[i] * 0.5;
  }
  return facc * 0.25f + (float)acc;
}

int main(void) {
  float x[N], dx[N] = {0}, w[N], dw[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; i++) { x[i] = 0.05f * i - 0.3f; w[i] = 1.0f + 0.02f * i; dy[i] = 0.1f; }
  __enzyme_autodiff((void *)f, x, dx, w, dw, y, dy, N);
  for (int i = 0; i < N; i++) {
    double xi = x[i], wi = w[i], t = xi * wi - 0.5 * xi * xi;
    double dt = 0.25 + t + 0.1 * 2 * t;   /* d/dt of 0.25 t + 0.5 t^2 (return) + 0.1 t^2 (seeded y) */
    check_close("df/dx", dx[i], dt * (wi - xi), 2e-6);
    check_close("df/dw", dw[i], dt * xi, 2e-6);
  }
  check_zerof("dy", dy, N);
  return check_finish();
}
