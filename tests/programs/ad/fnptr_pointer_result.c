/* An indirect call returning a pointer into active memory (its shadow comes back from the
 * augmented function of the callee), chosen from a constant table: the loop reads and updates
 * the element it points to. */
#include "check.h"
extern double __enzyme_autodiff(void *, ...);
typedef double *(*getter)(double *buf, int i);
__attribute__((noinline)) double *at_fwd(double *buf, int i) { return buf + i; }
__attribute__((noinline)) double *at_rev(double *buf, int i) { return buf + (3 - i); }
static getter const GET[2] = {at_fwd, at_rev};
static double f(double *x, int which) {
  double s = 0;
  for (int i = 0; i < 4; i++) {
    double *p = GET[which](x, i);
    s += *p * (i + 1) * *p;
    *p *= 1.5;
  }
  return s + x[0] * x[3];
}
static double X[4] = {0.5, 1.0, -0.3, 2.0};
static int W;
static double f_x(const double *x) { double t[4] = {x[0], x[1], x[2], x[3]}; return f(t, W); }
int main(void) {
  for (W = 0; W < 2; W++) {
    double x[4], dx[4] = {0};
    for (int i = 0; i < 4; i++) x[i] = X[i];
    __enzyme_autodiff((void *)f, x, dx, enzyme_const, W);
    for (int i = 0; i < 4; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);
  }
  return check_finish();
}
