/* Single precision: MPI_FLOAT messages (a ring with MPI_Sendrecv, MPI_Allreduce, MPI_Bcast) on
   float data, and a double loss. */
#include "mpi_check.h"

#define N 4
static float x[N], dx[N];

static double loss(const float *x, int n) {
  float out[N], in[N], tot[N], root[N];
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  for (int i = 0; i < n; i++) out[i] = sinf(x[i]) * (1 + rank);
  MPI_Sendrecv(out, n, MPI_FLOAT, right, 5, in, n, MPI_FLOAT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(in, tot, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) root[i] = x[i] * x[i];
  MPI_Bcast(root, n, MPI_FLOAT, nranks - 1, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)in[i] * x[i] + (double)tot[i] * tot[i] * 0.1 + root[i] * (i + 1);
  return s;
}

static double objective(void) { return loss(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.25f * (i + 1) + 0.1f * rank;
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  check_gradientf("dloss/dx", x, dx, N, objective, 2e-3);
  return check_finish();
}
