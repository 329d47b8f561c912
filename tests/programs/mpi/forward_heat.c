/* Forward mode through time steps of the 1-D heat equation with MPI_Isend / MPI_Irecv, the
   receives completed by polling MPI_Test, and a tangent with respect to the conductivity. */
#include "mpi_check.h"

#define N 5
#define T 5
static double u0[N], v[N], kappa[1];

static double energy(const double *u0, const double *k, int n) {
  double u[N + 2], w[N + 2];
  for (int i = 0; i < n; i++) u[i + 1] = u0[i];
  int left = (rank + nranks - 1) % nranks, right = (rank + 1) % nranks;
  for (int t = 0; t < T; t++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[3]);
    int done = 0;
    while (!done) MPI_Test(&req[0], &done, MPI_STATUS_IGNORE);
    MPI_Waitall(3, &req[1], MPI_STATUSES_IGNORE);
    for (int i = 1; i <= n; i++) w[i] = u[i] + k[0] * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 1; i <= n; i++) u[i] = w[i];
  }
  double e = 0;
  for (int i = 1; i <= n; i++) e += u[i] * u[i];
  return e;
}

static double all[N + 1];
static double objective(void) { return energy(all, &all[N], N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) {
    u0[i] = 1 + sin(0.5 * (rank * N + i));
    v[i] = 0.5 - 0.1 * i + 0.2 * rank;
  }
  kappa[0] = 0.2;
  double dk = 0.7 - 0.1 * rank;
  double t = __enzyme_fwddiff((void *)energy, enzyme_dup, u0, v, enzyme_dup, kappa, &dk, enzyme_const, N);
  double dir[N + 1];
  for (int i = 0; i < N; i++) {
    all[i] = u0[i];
    dir[i] = v[i];
  }
  all[N] = kappa[0];
  dir[N] = dk;
  check_tangent("tangent of the energy", all, dir, N + 1, objective, t, 1e-6);
  return check_finish();
}
