/* An implicit ODE stepper (tests/test_checkpointing.py): backward Euler on the Van der Pol
 * oscillator x' = v, v' = mu (1 - x^2) v - k x, each step solving for the next state (X, V) by
 * Newton's iteration, run until the update is below a tolerance (a while loop inside the
 * checkpointed time loop, its trip count found as it runs).  p = (mu, k).  REAL is double, or
 * float with -DSINGLE (and a tolerance to match). */
#include <math.h>

#ifdef SINGLE
#define REAL float
#define TOL 1e-6f
#else
#define REAL double
#define TOL 1e-13
#endif

REAL backward_euler(const REAL *p, REAL x0, int nsteps) {
  REAL x = x0, v = 0.5, dt = 0.05, mu = p[0], k = p[1];
  for (int t = 0; t < nsteps; t++) {
    REAL X = x, V = v, step;
    int it = 0;
    do {  /* G(X, V) = (X - x - dt V, V - v - dt (mu (1 - X^2) V - k X)) = 0 */
      REAL g0 = X - x - dt * V;
      REAL g1 = V - v - dt * (mu * (1 - X * X) * V - k * X);
      REAL a = 1, b = -dt;
      REAL c = dt * (2 * mu * X * V + k), d = 1 - dt * mu * (1 - X * X);
      REAL det = a * d - b * c;
      REAL dX = (d * g0 - b * g1) / det, dV = (a * g1 - c * g0) / det;
      X -= dX;
      V -= dV;
      step = fabs(dX) + fabs(dV);
    } while (step > TOL * (1 + fabs(X) + fabs(V)) && ++it < 50);
    x = X;
    v = V;
  }
  return x * x + 0.5 * v;
}
