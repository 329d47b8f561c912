/* A running index over a packed triangle (`l[idx++]`, as GMM's Q is stored): an induction
 * variable of the inner loop whose start changes from one outer iteration to the next. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double packed(const double *l, const double *x, int d, int n) {
  double out[8], s = 0;
  for (int i = 0; i < n; i++) {
    const double *z = x + i * d;
    for (int j = 0; j < d; j++) out[j] = 0;
    int idx = 0;
    for (int j = 0; j < d; j++)
      for (int k = j + 1; k < d; k++) out[k] += l[idx++] * z[j];
    for (int j = 0; j < d; j++) s += out[j] * out[j] * (1 + 0.1 * j);
  }
  return s;
}

static double X[5 * 6];
static double packed_l(const double *l) { return packed(l, X, 6, 5); }

int main(void) {
  double l[15], dl[15] = {0};
  for (int i = 0; i < 15; i++) l[i] = sin(1.0 + i);
  for (int i = 0; i < 30; i++) X[i] = cos(0.5 * i);
  __enzyme_autodiff((void *)packed, enzyme_dup, l, dl, enzyme_const, X, enzyme_const, 6, enzyme_const, 5);
  for (int i = 0; i < 15; i++) check_close("d packed / dl", dl[i], fd_array(packed_l, l, i), 1e-6);
  return check_finish();
}
