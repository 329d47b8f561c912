// CFLAGS: -ffast-math
/* Softmax into an output array under -ffast-math (vectorised max and sum reductions, division
 * turned into multiplication by a reciprocal), seeded by the caller. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 33 };

static void softmax(const double *x, double *p, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    p[i] = exp(x[i] - m);
    s += p[i];
  }
  for (int i = 0; i < n; i++) p[i] /= s;
}

int main(void) {
  double x[N], dx[N] = {0}, p[N], dp[N], w[N];
  for (int i = 0; i < N; i++) { x[i] = 2.0 * sin(1.1 * i); w[i] = cos(0.5 * i); dp[i] = w[i]; }
  __enzyme_autodiff((void *)softmax, x, dx, p, dp, N);
  /* d<w, p>/dx_j = p_j (w_j - <w, p>) */
  double wp = 0;
  for (int i = 0; i < N; i++) wp += w[i] * p[i];
  for (int j = 0; j < N; j++) check_close("d<w,softmax>/dx", dx[j], p[j] * (w[j] - wp), 1e-12);
  check_zero("dp", dp, N);
  return check_finish();
}
