// CFLAGS: -ffast-math
/* Vectorised loops mixing precisions: float data accumulated in double (fpext of <4 x float>),
 * double data rounded to float outputs (fptrunc of vectors), and int-to-float conversions of
 * the loop index (sitofp of vectors, inactive). */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 67 };

static double f(const float *x, const double *w, float *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)x[i] * w[i] + (double)i * 1e-3 * x[i];
  for (int i = 0; i < n; i++) out[i] = (float)(w[i] * w[i]) * x[i];
  return s;
}

int main(void) {
  float x[N], dx[N] = {0}, out[N], dout[N];
  double w[N], dw[N] = {0};
  for (int i = 0; i < N; i++) { x[i] = 0.5f + 0.01f * i; w[i] = cos(0.1 * i); dout[i] = 0.5f; }
  __enzyme_autodiff((void *)f, x, dx, w, dw, out, dout, N);
  for (int i = 0; i < N; i += 3) {
    double wf = (double)(float)(w[i] * w[i]);
    check_close("df/dx", dx[i], w[i] + i * 1e-3 + 0.5 * wf, 1e-6);
    check_close("df/dw", dw[i], x[i] + 0.5 * x[i] * 2 * w[i], 1e-6);
  }
  check_zerof("dout", dout, N);
  return check_finish();
}
