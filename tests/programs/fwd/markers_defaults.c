/* Enzyme's defaults in forward mode: unmarked doubles and pointers are duplicated, integers are
 * constant; markers as globals. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(double a, const double *p, int n, double b) {
  double s = a * b;
  for (int i = 0; i < n; i++) s += p[i] * a - b * p[i] * p[i];
  return s;
}

int main(void) {
  double p[3] = {0.5, 1.5, -0.5}, dp[3] = {1, 0, 2}, zero[3] = {0, 0, 0};
  double a = 1.2, b = -0.7;
  /* d/da: b + sum p */
  check_close("d/da", __enzyme_fwddiff((void *)f, a, 1.0, p, zero, 3, b, 0.0), b + 1.5, 1e-12);
  /* d/db: a - sum p^2 */
  check_close("d/db", __enzyme_fwddiff((void *)f, enzyme_dup, a, 0.0, enzyme_const, p, 3, enzyme_dup, b, 1.0), a - 2.75, 1e-12);
  /* along dp: sum (a - 2 b p_i) dp_i */
  double want = 0;
  for (int i = 0; i < 3; i++) want += (a - 2 * b * p[i]) * dp[i];
  check_close("d.dp", __enzyme_fwddiff((void *)f, enzyme_const, a, enzyme_dup, p, dp, enzyme_const, 3, enzyme_const, b), want, 1e-12);
  return check_finish();
}
