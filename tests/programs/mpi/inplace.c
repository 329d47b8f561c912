/* MPI_IN_PLACE: an allreduce in place, a reduce in place on the root (the others pass their
   buffer: the choice made at run time), an allgather in place, a gather in place on the root. */
#include "mpi_check.h"

#define N 3
#define MAXR 8
static double x[N], dx[N];

static double inplace(const double *x, int n) {
  double a[N], b[N], all[N * MAXR], g[N * MAXR];
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) b[i] = exp(0.2 * x[i]);
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : b, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) all[rank * n + i] = a[i] * x[i];
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) g[rank * n + i] = x[i] + b[i];
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, n, MPI_DOUBLE, g, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(&g[rank * n], n, MPI_DOUBLE, NULL, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < n * nranks; i++) s += all[i] * (1 + 0.5 * i);
  if (rank == 0)
    for (int i = 0; i < n * nranks; i++) s += g[i] * g[i] + b[i % n];
  return s;
}

static double objective(void) { return inplace(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.4 + 0.2 * i - 0.1 * rank;
  __enzyme_autodiff((void *)inplace, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
