/* A 1-D halo exchange with MPI_Sendrecv (MPI_PROC_NULL past the ends of the domain), then a
   stencil: every rank's loss depends on its neighbours' boundary values. */
#include "mpi_check.h"

#define N 5
static double x[N], dx[N];

static double loss(const double *x, int n) {
  double u[N + 2];
  for (int i = 0; i < n; i++) u[i + 1] = x[i] * x[i] + 0.5 * x[i];
  u[0] = u[n + 1] = 0.0;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
  /* send my first value left, receive the right neighbour's first into my right ghost */
  MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* and my last value right, the left neighbour's last into my left ghost */
  MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 1; i <= n; i++) {
    double lap = u[i - 1] - 2 * u[i] + u[i + 1];
    s += lap * lap + sin(u[i]) * u[i + 1];
  }
  return s;
}

static double objective(void) { return loss(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = cos(0.7 * (rank * N + i));
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
