/* Loops whose trip count is not known when they start (tests/test_checkpointing.py): Newton's
 * iteration for sqrt(p) run until it converges, and a counted loop with a `break` (which LLVM
 * turns into one exit test of both conditions); checkpointed, their steps are counted as the
 * primal runs them. */
#include <math.h>

double converge(const double *p, double x0) {
  double x = x0;
  while (fabs(x * x - p[0]) > 1e-9 * p[0]) x = 0.5 * (x + p[0] / x);
  return x;
}

double early_exit(const double *p, int nsteps) {
  double x = p[0];
  for (int t = 0; t < nsteps; t++) {
    if (x > 10) break;
    x = x * p[1] + 1;
  }
  return x;
}
