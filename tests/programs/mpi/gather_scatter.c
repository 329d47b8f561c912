/* MPI_Scatter of the root's parameters, a computation on every rank, MPI_Gather of the results
   to the root, which returns the loss (the other ranks return 0). */
#include "mpi_check.h"

#define K 3
#define MAXR 8
static double p[K * MAXR], dp[K * MAXR], x[K], dx[K];

static double pipeline(const double *p, const double *x, int k) {
  double mine[K], out[K], all[K * MAXR];
  MPI_Scatter(p, k, MPI_DOUBLE, mine, k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < k; i++) out[i] = tanh(mine[i] * x[i]) + mine[i];
  MPI_Gather(out, k, MPI_DOUBLE, all, k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double s = 0;
  if (rank == 0)
    for (int i = 0; i < k * nranks; i++) s += all[i] * all[i] * (1 + 0.1 * i);
  return s;
}

static double objective(void) { return pipeline(p, x, K); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < K * nranks; i++) p[i] = rank == 0 ? 0.2 * i - 0.5 : 0.0;
  for (int i = 0; i < K; i++) x[i] = 0.5 + 0.25 * i + 0.1 * rank;
  __enzyme_autodiff((void *)pipeline, enzyme_dup, p, dp, enzyme_dup, x, dx, enzyme_const, K);
  check_gradient("dloss/dp", p, dp, rank == 0 ? K * nranks : 0, objective, 1e-6);
  check_gradient("dloss/dx", x, dx, K, objective, 1e-6);
  return check_finish();
}
