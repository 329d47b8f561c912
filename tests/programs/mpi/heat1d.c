/* The 1-D heat equation, explicit in time: T steps, each exchanging halos with MPI_Sendrecv;
   the loss is the local energy at the end.  Gradient with respect to the initial temperature
   (an array) and the conductivity (an active scalar each rank passes its own copy of). */
#include "mpi_check.h"

#define N 6
#define T 8
static double u0[N], du0[N], kappa[1];

static double energy(const double *u0, double k, int n) {
  double u[N + 2], v[N + 2];
  for (int i = 0; i < n; i++) u[i + 1] = u0[i];
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int t = 0; t < T; t++) {
    u[0] = u[1];        /* insulated ends, unless a neighbour is there */
    u[n + 1] = u[n];
    MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; i++) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 1; i <= n; i++) u[i] = v[i];
  }
  double e = 0;
  for (int i = 1; i <= n; i++) e += u[i] * u[i] * (1 + 0.1 * i);
  return e;
}

static double objective(void) { return energy(u0, kappa[0], N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) u0[i] = exp(-0.1 * (rank * N + i - 5) * (rank * N + i - 5));
  kappa[0] = 0.2 + 0.01 * rank;
  double dk = __enzyme_autodiff((void *)energy, enzyme_dup, u0, du0, kappa[0], enzyme_const, N);
  check_gradient("denergy/du0", u0, du0, N, objective, 1e-6);
  check_gradient("denergy/dkappa", kappa, &dk, 1, objective, 1e-6);
  return check_finish();
}
