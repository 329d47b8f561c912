/* Polynomial evaluation by Horner's rule with active coefficients (dup array) and active x, at
 * several points, plus its derivative polynomial evaluated in the same loop. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
enum { DEG = 9 };

static double poly(const double *c, int deg, double x) {
  double p = c[deg], dp = 0;
  for (int k = deg - 1; k >= 0; k--) {
    dp = dp * x + p;
    p = p * x + c[k];
  }
  return p + 0.1 * dp * dp;
}

static double C[DEG + 1], X0;
static double fc(const double *c) { return poly(c, DEG, X0); }
static double fx(double x) { return poly(C, DEG, x); }

int main(void) {
  for (int k = 0; k <= DEG; k++) C[k] = 1.0 / (k + 1) * (k % 2 ? -1 : 1);
  for (X0 = -0.9; X0 < 1.2; X0 += 0.45) {
    double dc[DEG + 1] = {0};
    double dx = __enzyme_autodiff((void *)poly, enzyme_dup, C, dc, enzyme_const, DEG, X0);
    check_close("dp/dx", dx, fd1(fx, X0), 1e-6);
    for (int k = 0; k <= DEG; k += 2) check_close("dp/dc", dc[k], fd_array(fc, C, k), 1e-6);
  }
  return check_finish();
}
