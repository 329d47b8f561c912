/* Loops with continue (skipped iterations), several exits (break on two conditions, return
 * from the middle), counting down, with an unsigned index and a stride of 3. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 45 };

static double f(const double *x, unsigned n) {
  double s = 0;
  for (unsigned i = n; i-- > 0;) {
    if (x[i] < -0.5) continue;
    s += x[i] * x[i];
    if (s > 12.0) break;
    if (x[i] > 1.9) return s * x[i];
  }
  double t = 0;
  for (unsigned i = 1; i < n; i += 3) {
    if ((i & 1) == 0) continue;
    t += sin(x[i]) * x[i - 1];
  }
  return s + t;
}

static unsigned NN;
static double fx(const double *x) { return f(x, NN); }

int main(void) {
  double x[N], dx[N];
  static const unsigned ns[] = {N, 20, 7};
  for (int k = 0; k < 3; k++) {
    NN = ns[k];
    for (int i = 0; i < N; i++) { x[i] = 1.2 * sin(0.8 * i + k) + 0.2 * k; dx[i] = 0; }
    __enzyme_autodiff((void *)f, x, dx, NN);
    for (int i = 0; i < N; i += 2) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  }
  return check_finish();
}
