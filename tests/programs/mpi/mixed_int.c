/* Integer messages (inactive) beside float ones: sizes sent with MPI_INT, then that many doubles;
   a request array shared by an integer and a float message; and rank 0 broadcasting by hand from
   a buffer without derivatives (constants) while the others receive into memory with them. */
#include "mpi_check.h"

#define N 4
static double x[N], dx[N];

static double mixed(const double *x, int n) {
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  int count = n - (rank % 2), got;
  MPI_Sendrecv(&count, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double out[N], in[N] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) out[i] = exp(x[i]) - 1;
  MPI_Request req[2];
  int tag = 40 + rank, ltag;
  MPI_Irecv(&ltag, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(&tag, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Irecv(in, got, MPI_DOUBLE, left, ltag, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(out, count, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double table[N];
  if (rank == 0) {
    const double c[N] = {1.5, -0.5, 2.0, 0.25};
    for (int q = 1; q < nranks; q++) MPI_Send(c, n, MPI_DOUBLE, q, 9, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++) table[i] = c[i];
  } else {
    MPI_Recv(table, n, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += in[i] * x[i] * table[i] + out[i];
  return s;
}

static double objective(void) { return mixed(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 0.1 * rank + 0.3;
  __enzyme_autodiff((void *)mixed, enzyme_dup, x, dx, enzyme_const, N);
  check_gradient("dloss/dx", x, dx, N, objective, 1e-6);
  return check_finish();
}
