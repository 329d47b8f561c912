/* Sensitivity of an ODE solution (RK4 on a damped pendulum) to its parameters. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);

static void rhs(const double *p, const double *y, double *dy) {
  dy[0] = y[1];
  dy[1] = -p[0] * sin(y[0]) - p[1] * y[1];
}

void solve(const double *p, double *y, int steps) {
  double h = 0.01, k1[2], k2[2], k3[2], k4[2], t[2];
  for (int s = 0; s < steps; s++) {
    rhs(p, y, k1);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(p, t, k2);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(p, t, k3);
    for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
    rhs(p, t, k4);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
}

static void solve_map(const double *p, double *y, int n) {
  y[0] = 1.0, y[1] = 0.0;
  solve(p, y, 200);
}

int main(void) {
  double p[2] = {9.81, 0.3}, v[2] = {0.5, -1.0}, want[2];
  double y[2] = {1.0, 0.0}, dy[2] = {0.0, 0.0};
  __enzyme_fwddiff((void *)solve, enzyme_dup, p, v, enzyme_dup, y, dy, enzyme_const, 200);
  fd_map(solve_map, p, v, 2, want, 2);
  check_array("dy", dy, want, 2, 1e-6);
  return check_finish();
}
