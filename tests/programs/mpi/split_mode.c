/* Split mode: __enzyme_augmentfwd runs the forward sweep (the records of its non-blocking calls
   stay in the shadows of their requests, the owners of the maximum on the tape) and
   __enzyme_reverse the reverse sweep, later, from the tape. */
#include "mpi_check.h"

extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

#define N 3
static double x[N], dx[N];

static double ring(const double *x, int n) {
  double in[N], out[N], m;
  MPI_Request req[2];
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
  MPI_Irecv(in, n, MPI_DOUBLE, (rank + nranks - 1) % nranks, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(out, n, MPI_DOUBLE, (rank + 1) % nranks, 0, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double s = 0;
  for (int i = 0; i < n; i++) s += in[i] * sin(x[i]);
  MPI_Allreduce(&s, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m + s;
}

static double objective(void) { return ring(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i + 0.13 * rank;
  void *tape = __enzyme_augmentfwd((void *)ring, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_reverse((void *)ring, enzyme_dup, x, dx, enzyme_const, N, 1.0, tape);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
