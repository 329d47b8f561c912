// CFLAGS: -ffast-math
/* Reductions the loop vectoriser turns into <N x double> accumulators and
 * llvm.vector.reduce.fadd at -O2/-O3 (fast-math allows the reassociation): a dot product, a
 * weighted sum of squares and a sum with a runtime length that leaves a scalar remainder. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 203 };

static double f(const double *x, const double *y, int n) {
  double dot = 0, sq = 0;
  for (int i = 0; i < n; i++) {
    dot += x[i] * y[i];
    sq += (i & 3) * x[i] * x[i];
  }
  return dot * 0.5 + sq * sq * 1e-3;
}

static double X[N], Y[N];
static double fx(const double *x) { return f(x, Y, N); }
static double fy(const double *y) { return f(X, y, N); }

int main(void) {
  double dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) { X[i] = sin(0.1 * i); Y[i] = cos(0.07 * i) + 0.5; }
  __enzyme_autodiff((void *)f, X, dx, Y, dy, N);
  for (int i = 0; i < N; i += 13) check_close("df/dx", dx[i], fd_array(fx, X, i), 1e-6);
  for (int i = 1; i < N; i += 17) check_close("df/dy", dy[i], fd_array(fy, Y, i), 1e-6);
  check_close("df/dx last", dx[N - 1], fd_array(fx, X, N - 1), 1e-6);
  return check_finish();
}
