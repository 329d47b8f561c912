/* Integer code that must stay inactive: loop counters, bit tricks, hashing to pick indices,
 * an int array argument marked const, and fptosi of an active value used only as an index. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 16 };

static double f(const double *x, const int *perm, int n) {
  double s = 0;
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++) {
    h = (h ^ (unsigned)perm[i]) * 16777619u;        /* integer hash, no derivative */
    int j = perm[i] & (n - 1);
    int bucket = (int)(x[j] * 4.0) & 3;              /* fptosi of an active value: an index */
    double w = 1.0 + (double)((h >> 7) % 5) + bucket;
    s += w * x[j] * x[(j + 1) % n];
  }
  return s;
}

static int P[N];
static double fx(const double *x) { return f(x, P, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) { P[i] = (i * 7 + 3) % N; x[i] = 0.15 * i + 0.07; }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, P, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    /* Points away from the floor steps of bucket: x[j]*4 is never within 0.05 of an integer. */
    check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  }
  return check_finish();
}
