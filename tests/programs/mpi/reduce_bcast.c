/* MPI_Reduce of a sum to the root, which computes a scale and MPI_Bcast's it back: a distributed
   normalisation.  Also MPI_Reduce of an array to a root other than 0. */
#include "mpi_check.h"

#define N 4
static double x[N], dx[N];

static double normalised(const double *x, int n) {
  double local = 0, total = 0, scale;
  for (int i = 0; i < n; i++) local += x[i] * x[i];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) scale = 1.0 / sqrt(total);
  MPI_Bcast(&scale, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double y[N], sums[N];
  for (int i = 0; i < n; i++) y[i] = x[i] * scale * (1 + rank + i);
  int root = nranks - 1;
  MPI_Reduce(y, sums, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  double s = 0;
  if (rank == root)
    for (int i = 0; i < n; i++) s += sums[i] * sums[i];
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

static double objective(void) { return normalised(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 1.0 + 0.3 * i - 0.2 * rank;
  __enzyme_autodiff((void *)normalised, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
