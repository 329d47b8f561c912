/* Width 3 with a double result: the three tangents come back as a struct of three doubles,
 * through the hidden sret pointer of the C ABI. */
#include "fwd.h"

typedef struct {
  double a, b, c;
} D3;
extern D3 __enzyme_fwddiff(void *, ...);

double f(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i] * (i + 1);
  return sqrt(s) + p[0] * p[1] * p[2];
}

int main(void) {
  double p[3] = {0.4, -1.2, 0.9};
  double e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  D3 g = __enzyme_fwddiff((void *)f, enzyme_width, 3, enzyme_dup, p, e0, e1, e2, enzyme_const, 3);
  check_close("df/dp0", g.a, fd_array_n(f, p, 3, 0), 1e-6);
  check_close("df/dp1", g.b, fd_array_n(f, p, 3, 1), 1e-6);
  check_close("df/dp2", g.c, fd_array_n(f, p, 3, 2), 1e-6);
  return check_finish();
}
