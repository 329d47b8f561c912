/* MPI_Allreduce with MPI_MAX and MPI_MIN (the derivative goes to the rank that held the
   extremum), element-wise over an array, in place, and MPI_Reduce with MPI_MAX to a root. */
#include "mpi_check.h"

#define N 4
static double x[N], dx[N];

static double extremes(const double *x, int n) {
  double a[N], hi[N], lo[N], m;
  for (int i = 0; i < n; i++) a[i] = sin(x[i]) + x[i];
  MPI_Allreduce(a, hi, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(a, lo, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double local = x[0] * x[n - 1], top = 0;
  MPI_Reduce(&local, &top, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double s = rank == 0 ? 3 * top : 0;
  for (int i = 0; i < n; i++) s += hi[i] * (i + 1) - lo[i] * lo[i] + a[i] * (rank + 1);
  return s;
}

static double objective(void) { return extremes(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  /* distinct values, so that each extremum has one owner */
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.37 * ((rank * 7 + i * 3) % 11) + 0.01 * rank;
  __enzyme_autodiff((void *)extremes, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
