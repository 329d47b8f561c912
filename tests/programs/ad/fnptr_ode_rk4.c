/* An RK4 integrator taking the right-hand side as `void (*rhs)(t, const double *y, double *dy,
 * const double *p)`: derivatives flow through pointer arguments of the called function (state
 * in, slopes out, parameters read), in a loop of steps with stage buffers on the stack.  The
 * function pointer is an argument of the differentiated function, passed enzyme_const and also
 * duplicated with itself as its own shadow (both conventions of Enzyme's users). */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { D = 2, STEPS = 40 };

typedef void (*rhs_fn)(double t, const double *y, double *dy, const double *p);

/* Damped oscillator: y0' = y1, y1' = -k y0 - c y1 + sin(t). */
__attribute__((noinline)) void oscillator(double t, const double *y, double *dy, const double *p) {
  dy[0] = y[1];
  dy[1] = -p[0] * y[0] - p[1] * y[1] + sin(t);
}

/* Lotka-Volterra. */
__attribute__((noinline)) void predator(double t, const double *y, double *dy, const double *p) {
  (void)t;
  dy[0] = y[0] * (p[0] - 0.4 * y[1]);
  dy[1] = y[1] * (0.3 * y[0] - p[1]);
}

__attribute__((noinline)) void rk4(rhs_fn rhs, double *y, const double *p, double h, int steps) {
  double k1[D], k2[D], k3[D], k4[D], tmp[D];
  for (int s = 0; s < steps; s++) {
    double t = s * h;
    rhs(t, y, k1, p);
    for (int i = 0; i < D; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
    rhs(t + 0.5 * h, tmp, k2, p);
    for (int i = 0; i < D; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
    rhs(t + 0.5 * h, tmp, k3, p);
    for (int i = 0; i < D; i++) tmp[i] = y[i] + h * k3[i];
    rhs(t + h, tmp, k4, p);
    for (int i = 0; i < D; i++) y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
}

/* Loss of the final state; y0 and p active, the right-hand side chosen by the caller. */
static double loss(rhs_fn rhs, const double *y0, const double *p) {
  double y[D] = {y0[0], y0[1]};
  rk4(rhs, y, p, 0.05, STEPS);
  return y[0] * y[0] + 0.5 * y[1];
}

static rhs_fn RHS;
static double Y0[D] = {1.0, 0.5}, P[2] = {2.0, 0.3};
static double loss_y(const double *y) { return loss(RHS, y, P); }
static double loss_p(const double *p) { return loss(RHS, Y0, p); }

int main(void) {
  rhs_fn fns[2] = {oscillator, predator};
  for (int which = 0; which < 2; which++) {
    RHS = fns[which];
    double dy[D] = {0}, dp[2] = {0};
    __enzyme_autodiff((void *)loss, enzyme_const, RHS, enzyme_dup, Y0, dy, enzyme_dup, P, dp);
    for (int i = 0; i < D; i++) check_close("dloss/dy0", dy[i], fd_array(loss_y, Y0, i), 1e-6);
    for (int i = 0; i < 2; i++) check_close("dloss/dp", dp[i], fd_array(loss_p, P, i), 1e-6);

    double dy2[D] = {0}, dp2[2] = {0};
    __enzyme_autodiff((void *)loss, RHS, RHS, Y0, dy2, P, dp2);
    for (int i = 0; i < D; i++) check_close("dloss/dy0 (pointer as its own shadow)", dy2[i], dy[i], 1e-12);
    for (int i = 0; i < 2; i++) check_close("dloss/dp (pointer as its own shadow)", dp2[i], dp[i], 1e-12);
  }
  return check_finish();
}
