/* Time loops that overwrite memory in place (tests/test_checkpointing.py): checkpoints hold the
 * regions the body writes, found from the stores' addresses and the inner loops' bounds. */

/* The heat equation, explicit, in place (Gauss-Seidel order): u[1..m-2] overwritten each step. */
double heat(double *u, int m, double k, int nsteps) {
  for (int t = 0; t < nsteps; t++)
    for (int j = 1; j < m - 1; j++) u[j] = u[j] + k * (u[j - 1] - 2 * u[j] + u[j + 1]);
  double s = 0;
  for (int j = 0; j < m; j++) s += u[j] * u[j] * (j + 1);
  return s;
}

/* Double-buffered (Jacobi order): the new values go to tmp, then are copied back into u.  (Kept
 * scalar: the copies LLVM's vectoriser makes, with a remainder masked by `n & 3`, are refused,
 * see unsupported.c.) */
double jacobi(double *u, double *tmp, int m, double k, int nsteps) {
  for (int t = 0; t < nsteps; t++) {
#pragma clang loop vectorize(disable) unroll(disable)
    for (int j = 1; j < m - 1; j++) tmp[j] = u[j] + k * (u[j - 1] - 2 * u[j] + u[j + 1]) + 0.01 * u[j] * u[j];
#pragma clang loop vectorize(disable) unroll(disable)
    for (int j = 1; j < m - 1; j++) u[j] = tmp[j];
  }
  double s = 0;
  for (int j = 0; j < m; j++) s += u[j] * u[j] * (j + 1);
  return s;
}

/* A scalar accumulated in memory (*acc) and a loop-carried value at once. */
void accumulate(const double *p, double *acc, int nsteps) {
  double x = p[0];
  for (int t = 0; t < nsteps; t++) {
    x = 0.99 * x + 0.01 * p[1];
    *acc += x * x;
  }
}
