/* Pointer-increment loops (pointer induction variables): while (p < end) s += f(*p++), a
 * two-pointer walk from both ends, and a strided pointer. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 30 };

static double f(const double *x, int n) {
  const double *p = x, *end = x + n;
  double s = 0;
  while (p < end) {
    s += *p * exp(-*p);
    p++;
  }
  const double *lo = x, *hi = x + n - 1;
  double t = 0;
  while (lo < hi) t += *lo++ * *hi--;
  double u = 0;
  for (const double *q = x + 1; q < end; q += 4) u += q[0] * q[0] * q[-1];
  return s + t * 0.1 + u;
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 1.0;
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
