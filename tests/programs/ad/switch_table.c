/* A dense switch on an integer (LLVM may turn it into a lookup table of double constants, an
 * inactive constant global), a sparse switch, and a switch with fallthrough. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double dense(double x, int k) {
  double c;
  switch (k) {
  case 0: c = 1.5; break;
  case 1: c = -0.25; break;
  case 2: c = 3.0; break;
  case 3: c = 0.125; break;
  case 4: c = -2.0; break;
  default: c = 0.5;
  }
  return c * x * x;
}

static double sparse(double x, int k) {
  double r = x;
  switch (k) {
  case 3: r = sin(x); break;
  case 100: r = x * x * x; /* fallthrough */
  case 1000: r += exp(-x); break;
  case -7: return 2.0 * x;
  default: r = r * r + 1.0;
  }
  return r * x;
}

static int K;
static double fdense(double x) { return dense(x, K); }
static double fsparse(double x) { return sparse(x, K); }

int main(void) {
  static const int ks[] = {0, 1, 2, 3, 4, 9, 100, 1000, -7, 5};
  for (int i = 0; i < 10; i++) {
    K = ks[i];
    double x = 0.37 + 0.1 * i;
    check_close("d dense/dx", __enzyme_autodiff((void *)dense, x, K), fd1(fdense, x), 1e-6);
    check_close("d sparse/dx", __enzyme_autodiff((void *)sparse, x, K), fd1(fsparse, x), 1e-6);
  }
  return check_finish();
}
