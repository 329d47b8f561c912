/* The 1-D heat equation on a periodic domain, halos exchanged with MPI_Isend / MPI_Irecv and
   one MPI_Waitall per time step: the same request variables are reused at every step, and the
   derivative's records of them chain from step to step. */
#include "mpi_check.h"

#define N 5
#define T 6
static double u0[N], du0[N];

static double energy(const double *u0, double k, int n) {
  double u[N + 2], v[N + 2];
  MPI_Request req[4];
  for (int i = 0; i < n; i++) u[i + 1] = u0[i];
  int left = (rank + nranks - 1) % nranks, right = (rank + 1) % nranks;
  for (int t = 0; t < T; t++) {
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, t, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 100 + t, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, t, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 100 + t, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= n; i++) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * u[i] * u[i];
    for (int i = 1; i <= n; i++) u[i] = v[i];
  }
  double e = 0;
  for (int i = 1; i <= n; i++) e += u[i] * u[i];
  return e;
}

static double objective(void) { return energy(u0, 0.25, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) u0[i] = sin(0.4 * (rank * N + i)) + 1.5;
  __enzyme_autodiff((void *)energy, enzyme_dup, u0, du0, enzyme_const, 0.25, enzyme_const, N);
  check_gradient("denergy/du0", u0, du0, N, objective, 1e-6);
  return check_finish();
}
