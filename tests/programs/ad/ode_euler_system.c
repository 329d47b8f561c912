/* Explicit Euler on a Lotka-Volterra system stored in a state array, with the parameters in a
 * dup array and a sum-of-squares misfit against observations (a const array). */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { STEPS = 400, OBS = 8 };

static double misfit(const double *theta, double *state, const double *obs) {
  double a = theta[0], b = theta[1], c = theta[2], d = theta[3];
  double h = 0.01, loss = 0;
  int k = 0;
  for (int t = 1; t <= STEPS; t++) {
    double x = state[0], y = state[1];
    state[0] = x + h * (a * x - b * x * y);
    state[1] = y + h * (d * x * y - c * y);
    if (t % (STEPS / OBS) == 0) {
      double r0 = state[0] - obs[2 * k], r1 = state[1] - obs[2 * k + 1];
      loss += r0 * r0 + r1 * r1;
      k++;
    }
  }
  return loss;
}

static double THETA[4] = {1.1, 0.4, 0.9, 0.3}, S0[2] = {2.0, 1.2}, OBSV[2 * OBS];
static double ft(const double *th) {
  double s[2] = {S0[0], S0[1]};
  return misfit(th, s, OBSV);
}
static double fs(const double *s0) {
  double s[2] = {s0[0], s0[1]};
  return misfit(THETA, s, OBSV);
}

int main(void) {
  for (int k = 0; k < 2 * OBS; k++) OBSV[k] = 1.5 + 0.3 * sin(k);
  double dth[4] = {0}, s[2] = {S0[0], S0[1]}, ds[2] = {0};
  __enzyme_autodiff((void *)misfit, enzyme_dup, THETA, dth, enzyme_dup, s, ds, enzyme_const, OBSV);
  for (int i = 0; i < 4; i++) check_close("dL/dtheta", dth[i], fd_array(ft, THETA, i), 1e-6);
  for (int i = 0; i < 2; i++) check_close("dL/ds0", ds[i], fd_array(fs, S0, i), 1e-6);
  return check_finish();
}
