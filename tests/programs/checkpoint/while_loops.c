/* A loop whose trip count is not known when it starts (tests/test_checkpointing.py): Newton's
 * iteration for sqrt(p) run until it converges; checkpointed, its steps are counted as the
 * primal runs. */
#include <math.h>

double converge(const double *p, double x0) {
  double x = x0;
  while (fabs(x * x - p[0]) > 1e-9 * p[0]) x = 0.5 * (x + p[0] / x);
  return x;
}
