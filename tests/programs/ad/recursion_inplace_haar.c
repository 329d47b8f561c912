/* An in-place Haar-like transform that recurses on the first half of the array it has just
 * overwritten (tail recursion, which LLVM turns into a loop whose memcpy length halves each
 * round), in double and in float. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 8 };

__attribute__((noinline)) void haar(double *x, int n) {
  if (n < 2) return;
  double t[N];
  for (int i = 0; i < n / 2; i++) {
    t[i] = (x[2 * i] + x[2 * i + 1]) * M_SQRT1_2;
    t[n / 2 + i] = (x[2 * i] - x[2 * i + 1]) * M_SQRT1_2 * x[2 * i];
  }
  for (int i = 0; i < n; i++) x[i] = t[i];
  haar(x, n / 2);
}

__attribute__((noinline)) void haar_f(float *x, long n) {
  if (n < 2) return;
  float t[N];
  for (long i = 0; i < n / 2; i++) {
    t[i] = x[2 * i] + x[2 * i + 1];
    t[n / 2 + i] = x[2 * i] * x[2 * i + 1];
  }
  for (long i = 0; i < n; i++) x[i] = t[i];
  haar_f(x, n / 2);
}

static double X0[N] = {1.0, 0.5, -0.25, 0.75, 2.0, -1.0, 0.3, 0.6}, SEED[N];
static double haar_ref(const double *x0) {
  double x[N], s = 0;
  for (int i = 0; i < N; i++) x[i] = x0[i];
  haar(x, N);
  for (int i = 0; i < N; i++) s += SEED[i] * x[i];
  return s;
}
static double haar_f_ref(const double *x0) {
  double x[N], t[N], s = 0;
  for (int i = 0; i < N; i++) x[i] = x0[i];
  for (int n = N; n >= 2; n /= 2) {
    for (int i = 0; i < n / 2; i++) {
      t[i] = x[2 * i] + x[2 * i + 1];
      t[n / 2 + i] = x[2 * i] * x[2 * i + 1];
    }
    for (int i = 0; i < n; i++) x[i] = t[i];
  }
  for (int i = 0; i < N; i++) s += SEED[i] * x[i];
  return s;
}

int main(void) {
  double x[N], dx[N];
  for (int i = 0; i < N; i++) {
    x[i] = X0[i];
    SEED[i] = 1.0 + 0.5 * i;
    dx[i] = SEED[i];
  }
  __enzyme_autodiff((void *)haar, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("haar d/dx", dx[i], fd_array(haar_ref, X0, i), 1e-6);

  float y[N], dy[N];
  double Y0[N];
  for (int i = 0; i < N; i++) {
    Y0[i] = y[i] = 0.5f + 0.125f * i;
    dy[i] = (float)SEED[i];
  }
  __enzyme_autodiff((void *)haar_f, enzyme_dup, y, dy, enzyme_const, (long)N);
  for (int i = 0; i < N; i++) check_close("haar_f d/dy", dy[i], fd_array(haar_f_ref, Y0, i), 1e-5);
  return check_finish();
}
