/* Forward mode (__enzyme_fwddiff): tangents travel with their messages -- a halo exchange with
   MPI_Sendrecv, a ring with MPI_Isend / MPI_Irecv / MPI_Waitall, MPI_Allreduce of a sum and of
   a maximum, MPI_Bcast, MPI_Gather.  Every rank moves its inputs along its own direction; its
   tangent is that of its own result. */
#include "mpi_check.h"

#define N 4
#define MAXR 8
static double x[N], v[N];

static double model(const double *x, int n) {
  double u[N + 2], ring[N], sum[2], local[2], top, all[MAXR];
  for (int i = 0; i < n; i++) u[i + 1] = x[i] * x[i];
  u[0] = u[n + 1] = 1.0;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request req[2];
  int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
  MPI_Irecv(ring, n, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(&u[1], n, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  local[0] = local[1] = 0;
  for (int i = 1; i <= n; i++) {
    local[0] += u[i - 1] * u[i + 1] + ring[i - 1];
    local[1] += sin(u[i]);
  }
  MPI_Allreduce(local, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double mine = x[0] + 0.3 * x[n - 1] * rank;
  MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double scale = rank == 0 ? sum[1] : 0;
  MPI_Bcast(&scale, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(&local[1], 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double s = sum[0] * scale + top * top;
  if (rank == 0)
    for (int q = 0; q < nranks; q++) s += all[q] * (q + 1);
  return s;
}

static double objective(void) { return model(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.15 * i + 0.05 * rank;
    v[i] = cos(1.0 + i + 3 * rank);
  }
  double t = __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, N);
  check_tangent("tangent of the model", x, v, N, objective, t, 1e-6);
  return check_finish();
}
