/* A least-squares loss over distributed data, allreduce'd so that every rank returns the global
   loss (the derivative of the sum over ranks is then nranks times the gradient), and the same
   loss returned by rank 0 alone (the gradient itself). */
#include "mpi_check.h"

#define N 4
static double w[2], dw[2], dw0[2], xs[N], ys[N];

static double global_loss(const double *w, const double *x, const double *y, int n) {
  double local = 0, global;
  for (int i = 0; i < n; i++) {
    double r = w[0] * x[i] + w[1] * x[i] * x[i] - y[i];
    local += r * r;
  }
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return 0.5 * global;
}

static double root_loss(const double *w, const double *x, const double *y, int n) {
  double l = global_loss(w, x, y, n);
  return rank == 0 ? l : 0.0;
}

static double objective(void) { return global_loss(w, xs, ys, N); }
static double objective0(void) { return root_loss(w, xs, ys, N); }

int main(int argc, char **argv) {
  check_init(&argc, &argv);
  w[0] = 0.7 + 0.1 * rank; /* each rank's own copy of the parameters */
  w[1] = -0.3;
  for (int i = 0; i < N; i++) {
    xs[i] = 0.1 * (rank * N + i);
    ys[i] = sin(xs[i]);
  }
  __enzyme_autodiff((void *)global_loss, enzyme_dup, w, dw, enzyme_const, xs, enzyme_const, ys, enzyme_const, N);
  __enzyme_autodiff((void *)root_loss, enzyme_dup, w, dw0, enzyme_const, xs, enzyme_const, ys, enzyme_const, N);
  check_gradient("dL/dw (every rank returns L)", w, dw, 2, objective, 1e-6);
  check_gradient("dL/dw (rank 0 returns L)", w, dw0, 2, objective0, 1e-6);
  for (int k = 0; k < 2; k++) check_value("nranks * root's", k, dw[k], nranks * dw0[k], 1e-12);
  return check_finish();
}
