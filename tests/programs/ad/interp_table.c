/* Piecewise-linear interpolation in an active table (dup) at active query points: the segment
 * index comes from floor() of the query (zero derivative), the weights from its fraction. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { T = 11, Q = 7 };

static double interp_sum(const double *table, const double *q, int nq) {
  double s = 0;
  for (int i = 0; i < nq; i++) {
    double u = q[i] * (T - 1);
    double fl = floor(u);
    int k = (int)fl;
    if (k < 0) k = 0;
    if (k > T - 2) k = T - 2;
    double w = u - k;
    double v = table[k] * (1 - w) + table[k + 1] * w;
    s += v * v;
  }
  return s;
}

static double TAB[T], QS[Q] = {0.03, 0.17, 0.33, 0.51, 0.66, 0.84, 0.97};
static double ft(const double *t) { return interp_sum(t, QS, Q); }
static double fq(const double *q) { return interp_sum(TAB, q, Q); }

int main(void) {
  double dt[T] = {0}, dq[Q] = {0};
  for (int i = 0; i < T; i++) TAB[i] = exp(-0.3 * i) * cos(i);
  __enzyme_autodiff((void *)interp_sum, TAB, dt, QS, dq, Q);
  for (int i = 0; i < T; i++) check_close("ds/dtable", dt[i], fd_array(ft, TAB, i), 1e-6);
  for (int i = 0; i < Q; i++) check_close("ds/dq", dq[i], fd_array(fq, QS, i), 1e-6);
  return check_finish();
}
