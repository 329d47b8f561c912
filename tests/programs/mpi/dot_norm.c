/* A distributed dot product and norm (MPI_Allreduce with MPI_SUM): every rank returns the same
   global value, so the derivative of the sum over ranks is nranks times its gradient. */
#include "mpi_check.h"

#define N 5
static double x[N], y[N], dx[N], dy[N];

static double cosine(const double *x, const double *y, int n) {
  double local[3] = {0, 0, 0}, global[3];
  for (int i = 0; i < n; i++) {
    local[0] += x[i] * y[i];
    local[1] += x[i] * x[i];
    local[2] += y[i] * y[i];
  }
  MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global[0] / sqrt(global[1] * global[2]);
}

static double objective(void) { return cosine(x, y, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) {
    x[i] = sin(1.0 + i + N * rank);
    y[i] = cos(0.5 * i - rank);
  }
  __enzyme_autodiff((void *)cosine, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  check_gradient("dcos/dx", x, dx, N, objective, 1e-6);
  check_gradient("dcos/dy", y, dy, N, objective, 1e-6);
  return check_finish();
}
