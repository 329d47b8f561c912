/* A time loop around an OpenMP parallel loop (tests/test_checkpointing.py): the parallel region
 * is raised into the par dialect before checkpointing, which refuses it. */
double omp_heat(double *u, int m, int nsteps) {
  for (int t = 0; t < nsteps; t++) {
#pragma omp parallel for
    for (int j = 1; j < m - 1; j++) u[j] = 0.5 * u[j] + 0.25 * (u[j - 1] + u[j + 1]);
  }
  return u[1];
}
