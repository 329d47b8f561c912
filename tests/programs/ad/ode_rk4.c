/* A classical RK4 integrator for a damped nonlinear oscillator with parameters (stiffness,
 * damping) and initial state; the gradient of the final position w.r.t. all four, returned
 * through an sret struct of four doubles. */
#include "check.h"

typedef struct { double dx0, dv0, dk, dc; } grad4;
extern grad4 __enzyme_autodiff(void *, ...);

static void rhs(double x, double v, double k, double c, double *dx, double *dv) {
  *dx = v;
  *dv = -k * sin(x) - c * v * fabs(v) + 0.1 * cos(x * v);
}

static double integrate(double x0, double v0, double k, double c, int steps, double h) {
  double x = x0, v = v0;
  for (int i = 0; i < steps; i++) {
    double k1x, k1v, k2x, k2v, k3x, k3v, k4x, k4v;
    rhs(x, v, k, c, &k1x, &k1v);
    rhs(x + 0.5 * h * k1x, v + 0.5 * h * k1v, k, c, &k2x, &k2v);
    rhs(x + 0.5 * h * k2x, v + 0.5 * h * k2v, k, c, &k3x, &k3v);
    rhs(x + h * k3x, v + h * k3v, k, c, &k4x, &k4v);
    x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return x;
}

static double P[4] = {0.8, 0.3, 2.0, 0.15};
static double at(int which, double val) {
  double q[4] = {P[0], P[1], P[2], P[3]};
  q[which] = val;
  return integrate(q[0], q[1], q[2], q[3], 200, 0.02);
}
static double f0(double t) { return at(0, t); }
static double f1(double t) { return at(1, t); }
static double f2(double t) { return at(2, t); }
static double f3(double t) { return at(3, t); }

int main(void) {
  grad4 g = __enzyme_autodiff((void *)integrate, P[0], P[1], P[2], P[3], 200, enzyme_const, 0.02);
  check_close("dx/dx0", g.dx0, fd1(f0, P[0]), 1e-6);
  check_close("dx/dv0", g.dv0, fd1(f1, P[1]), 1e-6);
  check_close("dx/dk", g.dk, fd1(f2, P[2]), 1e-6);
  check_close("dx/dc", g.dc, fd1(f3, P[3]), 1e-6);
  return check_finish();
}
