/* A whole gradient in one forward call: width 5 over a function of 5 inputs, seeded with the
 * identity; compared with reverse mode's gradient of the same function. */
#include "fwd.h"

typedef struct {
  double d[5];
} D5;
extern D5 __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

double f(const double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    s += exp(0.3 * x[i]) * cos(x[(i + 2) % n]);
    p *= 1 + x[i] * x[i];
  }
  return s * log(p);
}

int main(void) {
  double x[5] = {0.5, -0.1, 0.7, 1.2, -0.8}, e[5][5] = {{0}};
  for (int i = 0; i < 5; i++) e[i][i] = 1;
  D5 g = __enzyme_fwddiff((void *)f, enzyme_width, 5, enzyme_dup, x, e[0], e[1], e[2], e[3], e[4], enzyme_const, 5);
  double gr[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, gr, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    check_close("forward vs reverse", g.d[i], gr[i], 1e-12);
    check_close("forward vs fd", g.d[i], fd_array_n(f, x, 5, i), 1e-6);
  }
  return check_finish();
}
