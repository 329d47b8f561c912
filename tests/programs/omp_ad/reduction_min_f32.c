/* reduction(min : m) in float: the adjoint goes to the minimising element only, and to the
 * active float scalar c (enzyme_out) that every iteration reads; checked against the derivative
 * computed in double. */
#include "omp_check.h"

/* A prototype with a float parameter: through `...` the float c would be promoted to double. */
extern float __enzyme_autodiff_vmin(void *, int, int, int, float *, float *, int, const float *, int, float);
enum { N = 77 };

__attribute__((noinline)) float vmin(int n, const float *x, const float *w, float c) {
  float m = INFINITY;
#pragma omp parallel for reduction(min : m)
  for (int i = 0; i < n; i++) {
    float v = w[i] * (1 + (x[i] - c) * (x[i] - c));
    m = v < m ? v : m;
  }
  return m;
}

static int argmin(int n, const float *x, const float *w, float c) {
  int k = 0;
  double best = INFINITY;
  for (int i = 0; i < n; i++) {
    double v = w[i] * (1 + ((double)x[i] - c) * ((double)x[i] - c));
    if (v < best) best = v, k = i;
  }
  return k;
}

#ifdef XZ_SELFCHECK
static float ref_vmin(int n, const float *x, float *dx, const float *w, float c) {
  int k = argmin(n, x, w, c);
  dx[k] += (float)(XZ_SEED * 2 * w[k] * ((double)x[k] - c));
  return (float)(XZ_SEED * -2 * w[k] * ((double)x[k] - c));
}
#endif

int main(void) {
  static float x[N], w[N], dx[N], w0[N];
  static double want[N];
  float c = 3.0f;
  for (int i = 0; i < N; i++) {
    x[i] = (float)(1.5 * sin(1.1 * i));
    w0[i] = w[i] = (float)(1 + (i * 37 % N) / 38.5);
  }
  float dc = XZ_DIFF(__enzyme_autodiff_vmin((void *)vmin, enzyme_const, N, enzyme_dup, x, dx, enzyme_const, w, enzyme_out, c),
                     ref_vmin(N, x, dx, w, c));
  int k = argmin(N, x, w, c);
  printf("argmin %d\n", k);
  for (int i = 0; i < N; i++) want[i] = i == k ? 2 * w[k] * ((double)x[k] - c) : 0;
  check_allf("dx", dx, want, N, 1e-5);
  check_close("dc", dc, -2 * w[k] * ((double)x[k] - c), 1e-5);
  xz_printf("dc", &dc, 1);
  check_same("w", w, w0, sizeof w);
  return check_finish();
}
