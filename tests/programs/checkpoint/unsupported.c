/* Loops checkpoint-loops refuses (tests/test_checkpointing.py): stores whose extent is not
 * known when the loop starts (a trajectory indexed by the time step; the copy loops LLVM's
 * vectoriser makes, with remainders counted by a mask). */
double trajectory(const double *p, double *traj, int nsteps) {
  double x = p[0];
  for (int t = 0; t < nsteps; t++) {
    x = x * p[1] + 0.1;
    traj[t] = x;
  }
  return x;
}

double jacobi_vectorized(double *u, double *tmp, int m, double k, int nsteps) {
  for (int t = 0; t < nsteps; t++) {
    for (int j = 1; j < m - 1; j++) tmp[j] = u[j] + k * (u[j - 1] - 2 * u[j] + u[j + 1]);
    for (int j = 1; j < m - 1; j++) u[j] = tmp[j];
  }
  return u[1];
}
