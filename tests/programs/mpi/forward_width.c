/* Vector forward mode (enzyme_width 2): two directions at once through MPI_Sendrecv and
   MPI_Allreduce, each direction with its own tangent messages. */
#include "mpi_check.h"

typedef struct {
  double a, b;
} pair;
extern pair __enzyme_fwddiff_width2(void *, ...);
int enzyme_width;

#define N 3
static double x[N], v[2 * N];

static double model(const double *x, int n) {
  double in[N], out[N], t;
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
  MPI_Sendrecv(out, n, MPI_DOUBLE, right, 0, in, n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 0; i < n; i++) s += in[i] * cos(x[i]);
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t * s;
}

static double objective(void) { return model(x, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  for (int i = 0; i < N; i++) {
    x[i] = 0.4 + 0.1 * i + 0.2 * rank;
    v[i] = 1.0 + i;
    v[N + i] = -0.5 * i + rank;
  }
  pair t = __enzyme_fwddiff_width2((void *)model, enzyme_width, 2, enzyme_dup, x, v, v + N, enzyme_const, N);
  check_tangent("direction 0", x, v, N, objective, t.a, 1e-6);
  check_tangent("direction 1", x, v + N, N, objective, t.b, 1e-6);
  return check_finish();
}
