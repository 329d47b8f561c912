/* MPI calls in functions that are not inlined: one posts a receive and a send into the caller's
   request array, the caller waits; another allreduces a value.  The callees are differentiated
   with their caller, the records of the non-blocking calls going through the shadow of the
   array passed in. */
#include "mpi_check.h"

#define N 3
static double x[N], dx[N];

__attribute__((noinline)) static void post(double *out, double *in, int n, MPI_Request *req) {
  MPI_Irecv(in, n, MPI_DOUBLE, (rank + nranks - 1) % nranks, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(out, n, MPI_DOUBLE, (rank + 1) % nranks, 0, MPI_COMM_WORLD, &req[1]);
}

__attribute__((noinline)) static double total(double v) {
  double t;
  MPI_Allreduce(&v, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

static double exchange(const double *x, int n) {
  double out[N], in[N];
  MPI_Request req[2];
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i] * (rank + 1);
  post(out, in, n, req);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double s = 0;
  for (int i = 0; i < n; i++) s += in[i] * sin(x[i]);
  return total(s) * s;
}

static double objective(void) { return exchange(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i + 0.1 * rank;
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
