/* Forward-mode derivatives the program gives itself (__enzyme_register_derivative_NAME =
 * {fn, derivative}, Enzyme's C convention: each floating-point or pointer argument followed by
 * its tangent or shadow):
 *  - quantize: returns {result, tangent}; a straight-through tangent (the true derivative of
 *    the rounding is zero), so the numbers prove the rule is used;
 *  - smooth_abs: returns the tangent alone (the result comes from calling smooth_abs), with a
 *    constant second argument whose tangent slot gets zero;
 *  - scale_into: void, pointers with their shadows. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct { double value, tangent; } Dual;

static int derivative_calls;

__attribute__((noinline)) double quantize(double x) { return floor(x * 8 + 0.5) / 8; }
Dual quantize_fwd(double x, double dx) {
  derivative_calls++;
  Dual d = {quantize(x), dx};
  return d;
}
void *__enzyme_register_derivative_quantize[] = {(void *)quantize, (void *)quantize_fwd};

__attribute__((noinline)) double smooth_abs(double x, double eps) { return sqrt(x * x + eps * eps); }
double smooth_abs_fwd(double x, double dx, double eps, double deps) {
  return (x * dx + eps * deps) / smooth_abs(x, eps);
}
void *__enzyme_register_derivative_smooth_abs[] = {(void *)smooth_abs, (void *)smooth_abs_fwd};

__attribute__((noinline)) void scale_into(const double *x, double *y, int n, double s) {
  for (int i = 0; i < n; i++) y[i] = x[i] * s;
}
void scale_into_fwd(const double *x, const double *dx, double *y, double *dy, int n, double s, double ds) {
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * s;
    dy[i] = dx[i] * s + x[i] * ds;
  }
}
void *__enzyme_register_derivative_scale_into[] = {(void *)scale_into, (void *)scale_into_fwd};

static double f(double x) { return quantize(x) * x + smooth_abs(x - 0.2, 0.1); }

static double g(const double *x, double s) {
  double y[3];
  scale_into(x, y, 3, s);
  return y[0] * y[1] + y[2];
}

int main(void) {
  double x = 0.37;
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  /* straight through: d/dx [q(x) x] taken as x + q(x) */
  double want = x + quantize(x) + (x - 0.2) / smooth_abs(x - 0.2, 0.1);
  check_close("d f", t, want, 1e-12);
  check_close("derivative calls", derivative_calls, 1, 0);

  double v[3] = {0.5, -1.5, 2.0}, dv[3] = {1.0, 0.0, 0.5}, s = 1.3;
  double dg = __enzyme_fwddiff((void *)g, enzyme_dup, v, dv, s, 0.25);
  /* y = s v: d(y0 y1 + y2) = dy0 y1 + y0 dy1 + dy2, dy = dv s + v ds */
  double y[3], dy[3];
  for (int i = 0; i < 3; i++) y[i] = v[i] * s, dy[i] = dv[i] * s + v[i] * 0.25;
  check_close("d g", dg, dy[0] * y[1] + y[0] * dy[1] + dy[2], 1e-12);
  return check_finish();
}
