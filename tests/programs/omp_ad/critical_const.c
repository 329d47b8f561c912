/* Data marked enzyme_const inside a critical section: `scale` is read there, `stats` and
 * `count` are written there (a running maximum, counters).  The derivative call must run the
 * primal's writes into them -- afterwards they hold what one primal call leaves -- and write
 * nothing else into them; `scale` must be unchanged. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 120 };

__attribute__((noinline)) double f(int n, const double *x, const double *scale, double *stats, int *count) {
  double total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] * scale[i % 4];
#pragma omp critical
    {
      total += v * scale[i % 4];
      count[i % 3] += 1;
      if (v > stats[0]) stats[0] = v;
      stats[1] += 1.0;
    }
  }
  return total;
}

#ifdef XZ_SELFCHECK
static double ref_f(int n, const double *x, double *dx, const double *scale, double *stats, int *count) {
  f(n, x, scale, stats, count);
  for (int i = 0; i < n; i++) dx[i] += XZ_SEED * 2 * x[i] * scale[i % 4] * scale[i % 4];
  return 0;
}
#endif

int main(void) {
  static double x[N], dx[N], want[N];
  double scale[4] = {0.5, 1.5, -1.0, 2.0}, scale0[4], stats[2] = {-1e300, 0}, stats1[2] = {-1e300, 0};
  int count[3] = {5, 6, 7}, count1[3] = {5, 6, 7};
  memcpy(scale0, scale, sizeof scale);
  for (int i = 0; i < N; i++) x[i] = cos(0.7 * i) * 1.3;
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, x, dx, enzyme_const, scale, enzyme_const, stats,
                            enzyme_const, count),
          ref_f(N, x, dx, scale, stats, count));
  for (int i = 0; i < N; i++) want[i] = 2 * x[i] * scale[i % 4] * scale[i % 4];
  check_all("dx", dx, want, N, 1e-14);
  check_same("scale", scale, scale0, sizeof scale);
  f(N, x, scale, stats1, count1); /* what one primal call leaves */
  check_same("stats", stats, stats1, sizeof stats);
  check_same("count", count, count1, sizeof count);
  printf("stats %g %g, count %d %d %d\n", stats[0], stats[1], count[0], count[1], count[2]);
  return check_finish();
}
