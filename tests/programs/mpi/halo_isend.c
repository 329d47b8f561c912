/* A halo exchange with MPI_Isend / MPI_Irecv / MPI_Waitall straight into the ghost cells of the
   differentiated array (x[0] and x[n+1]): the received values overwrite part of the input. */
#include "mpi_check.h"

#define N 6
static double x[N + 2], dx[N + 2];

static double loss(double *x, int n) {
  MPI_Request req[4];
  int left = (rank + nranks - 1) % nranks, right = (rank + 1) % nranks; /* periodic */
  MPI_Irecv(&x[0], 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&x[n + 1], 1, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&x[n], 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&x[1], 1, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  double s = 0;
  for (int i = 1; i <= n; i++) s += x[i] * exp(0.3 * (x[i - 1] + x[i + 1])) / (1 + i);
  return s;
}

static double xs[N + 2];
static double objective(void) {
  for (int i = 0; i < N + 2; i++) xs[i] = x[i];
  return loss(xs, N);
}

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N + 2; i++) x[i] = 0.1 * (i + 1) - 0.2 * rank;
  double x0[N + 2];
  for (int i = 0; i < N + 2; i++) x0[i] = x[i];
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N + 2; i++) x[i] = x0[i]; /* the primal overwrote the ghosts */
  check_gradient("dloss/dx", x, dx, N + 2, objective, 1e-6);
  return check_finish();
}
