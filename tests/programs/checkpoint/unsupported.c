/* Loops checkpoint-loops refuses (tests/test_checkpointing.py): a body that overwrites memory
 * in place, and a loop whose trip count is not known when it starts. */
#include <math.h>

double heat(double *u, int m, int nsteps) {
  for (int t = 0; t < nsteps; t++)
    for (int j = 1; j < m - 1; j++) u[j] = u[j] + 0.1 * (u[j - 1] - 2 * u[j] + u[j + 1]);
  double s = 0;
  for (int j = 0; j < m; j++) s += u[j] * u[j];
  return s;
}

double converge(const double *p, double x0) {
  double x = x0;
  while (fabs(x * x - p[0]) > 1e-12) x = 0.5 * (x + p[0] / x);
  return x;
}
