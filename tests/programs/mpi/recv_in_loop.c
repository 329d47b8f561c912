/* A value received into the same variable at every iteration of a loop, used there: the reverse
   sweep needs each iteration's value, which the next receive overwrote -- so it must cache it,
   not load it again (the receive writes its buffer as a store would).  The values received are
   constants (no derivatives travel), the derivative only needs them. */
#include "mpi_check.h"

#define N 4
static double x[N], dx[N];

static double accumulate(const double *x, int n) {
  double s = 0, got;
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  for (int i = 0; i < n; i++) {
    double out = 1.5 + i * (rank + 1);
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, right, i, &got, 1, MPI_DOUBLE, left, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s += got * x[i] * x[i];
  }
  return s;
}

static double objective(void) { return accumulate(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.5 + i - 0.1 * rank;
  __enzyme_autodiff((void *)accumulate, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
