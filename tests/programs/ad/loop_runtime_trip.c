/* Loops whose trip count is a runtime integer argument (including zero iterations), with the
 * loop state carried in several phis. */
#include "check.h"

typedef struct { double da, db; } grad2;
extern grad2 __enzyme_autodiff(void *, ...);

static double f(double a, double b, int n) {
  double x = a, y = b;
  for (int i = 0; i < n; i++) {
    double nx = 0.9 * x - 0.2 * y * y;
    double ny = 0.3 * x * y + 0.8 * y;
    x = nx;
    y = ny;
  }
  return x + 2.0 * y;
}

static int N;
static double B, A;
static double fa(double a) { return f(a, B, N); }
static double fb(double b) { return f(A, b, N); }

int main(void) {
  static const int ns[] = {0, 1, 2, 7, 40};
  for (int k = 0; k < 5; k++) {
    N = ns[k];
    A = 0.6;
    B = -0.4;
    grad2 g = __enzyme_autodiff((void *)f, A, B, N);
    check_close("df/da", g.da, fd1(fa, A), 1e-6);
    check_close("df/db", g.db, fd1(fb, B), 1e-6);
  }
  return check_finish();
}
