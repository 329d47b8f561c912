/* Non-blocking calls completed one by one: MPI_Issend waited for with MPI_Wait, MPI_Irecv polled
   with MPI_Test until it completes (the loop runs a data-dependent number of times), and a
   request that is waited for twice (the second wait finds MPI_REQUEST_NULL). */
#include "mpi_check.h"

#define N 3
static double x[N], dx[N];

static double exchange(const double *x, int n) {
  double out[N], in[N];
  MPI_Request send, recv;
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i] * (rank + 2);
  MPI_Irecv(in, n, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &recv);
  MPI_Issend(out, n, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &send);
  int done = 0;
  while (!done) MPI_Test(&recv, &done, MPI_STATUS_IGNORE);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 0; i < n; i++) s += cos(in[i]) * x[i];
  return s;
}

static double objective(void) { return exchange(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.3 * (i + 1) + 0.07 * rank;
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
