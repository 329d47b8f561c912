/* A return from inside a doubly nested loop: the reverse sweep starts in the middle of both
 * loops, at the iteration where the forward sweep left. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { R = 6, C = 5 };

static double f(const double *a, int rows, int cols) {
  double acc = 0;
  for (int i = 0; i < rows; i++) {
    double rowsum = 0;
    for (int j = 0; j < cols; j++) {
      rowsum += a[i * cols + j] * a[i * cols + j];
      acc += 0.5 * rowsum;
      if (acc > 9.0) return acc * a[i * cols + j];
    }
    acc = acc * 0.8 + rowsum;
  }
  return -acc;
}

static double fx(const double *a) { return f(a, R, C); }

int main(void) {
  double a[R * C], da[R * C];
  for (int scale = 1; scale <= 3; scale++) {
    for (int i = 0; i < R * C; i++) { a[i] = 0.2 * scale * cos(0.9 * i); da[i] = 0; }
    __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, R, enzyme_const, C);
    for (int i = 0; i < R * C; i += 2) check_close("df/da", da[i], fd_array(fx, a, i), 1e-6);
  }
  return check_finish();
}
