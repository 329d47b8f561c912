/* MPI_Alltoall (a transpose of blocks), MPI_Reduce_scatter_block of a sum, and MPI_Allgather. */
#include "mpi_check.h"

#define B 2
#define MAXR 8
static double x[B * MAXR], dx[B * MAXR];

static double transpose(const double *x, int b) {
  double y[B * MAXR], z[B], all[B * MAXR];
  MPI_Alltoall(x, b, MPI_DOUBLE, y, b, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < b * nranks; i++) y[i] = y[i] * y[i] + 0.5 * (i + rank);
  MPI_Reduce_scatter_block(y, z, b, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allgather(z, b, MPI_DOUBLE, all, b, MPI_DOUBLE, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < b * nranks; i++) s += sin(all[i]) * (1 + i + rank);
  return s;
}

static double objective(void) { return transpose(x, B); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < B * nranks; i++) x[i] = 0.1 * i - 0.05 * rank + 0.2;
  __enzyme_autodiff((void *)transpose, enzyme_dup, x, dx, enzyme_const, B);
  check_gradient("dloss/dx", x, dx, B * nranks, objective, 1e-6);
  return check_finish();
}
