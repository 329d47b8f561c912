/* MPI_Sendrecv_replace around a ring (the buffer sent is replaced by the one received), MPI_Ssend
   and MPI_Recv to a neighbour chosen at run time (MPI_PROC_NULL on the last rank), a barrier. */
#include "mpi_check.h"

#define N 3
static double x[N], dx[N];

static double rotate(double *x, int n) {
  double buf[N], extra[N];
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  for (int i = 0; i < n; i++) buf[i] = x[i] * (i + 1);
  MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, right, 2, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) extra[i] = 1.0;
  int next = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL, prev = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  if (rank % 2 == 0) {
    MPI_Ssend(buf, n, MPI_DOUBLE, next, 4, MPI_COMM_WORLD);
    MPI_Recv(extra, n, MPI_DOUBLE, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(extra, n, MPI_DOUBLE, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(buf, n, MPI_DOUBLE, next, 4, MPI_COMM_WORLD);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += buf[i] * buf[i] * x[i] + extra[i] * sin(x[i]);
  return s;
}

static double objective(void) { return rotate(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * i + 0.11 * rank;
  __enzyme_autodiff((void *)rotate, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
