/* A ring shift with blocking MPI_Send / MPI_Recv (even ranks send first): each rank's values go to
   its right neighbour, whose loss uses them with its own. */
#include "mpi_check.h"

#define N 4
static double x[N], dx[N];

static double loss(const double *x, int n) {
  double out[N], in[N];
  for (int i = 0; i < n; i++) out[i] = sin(x[i]) * (rank + 1);
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  if (rank % 2 == 0) {
    MPI_Send(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += in[i] * x[i] + in[i] * in[i];
  return s;
}

static double objective(void) { return loss(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i + 0.05 * rank;
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
