/* A distributed 2-D heat equation and its gradient (MPI; benchmarks/mpi_scaling.py runs it).
 *
 * The NX x NY grid is split into blocks of rows, one per rank, each with a ghost row above and
 * below; every explicit time step exchanges the boundary rows with the neighbours (MPI_Isend /
 * MPI_Irecv / MPI_Waitall; MPI_PROC_NULL at the top and bottom), then updates
 * u += dt (kappa lap(u) - u^3) (Dirichlet zero at the left and right edges).  The function returns
 * the rank's part of the final energy sum(u^2); by Enzyme's convention the gradient each rank
 * computes with respect to its block of u0 is that of the global energy.
 *
 * prog NX NY STEPS SAMPLES: checks the gradient against central differences of the global
 * energy (at a few grid points of every rank), then times the primal and the gradient, SAMPLES
 * samples each in alternation, every sample the slowest rank's time between two barriers; rank 0
 * prints one JSON line.  Exit status 1 if the check fails. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static int rank, nranks;

static double heat(const double *u0, int nx, int rows, int steps, double kappa, double dt) {
  size_t cells = (size_t)nx * (rows + 2);
  double *u = malloc(cells * sizeof(double)), *v = malloc(cells * sizeof(double));
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int j = 0; j < rows; j++)
    for (int i = 0; i < nx; i++) u[(j + 1) * nx + i] = u0[j * nx + i];
  for (int i = 0; i < nx; i++) u[i] = u[(rows + 1) * nx + i] = 0.0;
  for (int t = 0; t < steps; t++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0], nx, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[(rows + 1) * nx], nx, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[rows * nx], nx, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[nx], nx, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int j = 1; j <= rows; j++) {
      v[j * nx] = v[j * nx + nx - 1] = 0.0;
      for (int i = 1; i < nx - 1; i++) {
        double c = u[j * nx + i];
        double lap = u[j * nx + i - 1] + u[j * nx + i + 1] + u[(j - 1) * nx + i] + u[(j + 1) * nx + i] - 4 * c;
        v[j * nx + i] = c + dt * (kappa * lap - c * c * c);
      }
    }
    for (size_t k = nx; k < (size_t)nx * (rows + 1); k++) u[k] = v[k];
  }
  double e = 0;
  for (int j = 1; j <= rows; j++)
    for (int i = 0; i < nx; i++) e += u[j * nx + i] * u[j * nx + i];
  free(u);
  free(v);
  return e;
}

static int nx, rows, steps;
static double *u0, *du0;
static const double KAPPA = 0.2, DT = 0.5;

static void primal(void) { heat(u0, nx, rows, steps, KAPPA, DT); }

static void gradient(void) {
  memset(du0, 0, sizeof(double) * nx * rows);
  __enzyme_autodiff((void *)heat, enzyme_dup, u0, du0, enzyme_const, nx, enzyme_const, rows,
                    enzyme_const, steps, enzyme_const, KAPPA, enzyme_const, DT);
}

static double global_energy(void) {
  double e = heat(u0, nx, rows, steps, KAPPA, DT), total;
  MPI_Allreduce(&e, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* The slowest rank's time for `reps` calls, between barriers. */
static double timed(void (*fn)(void), int reps) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int k = 0; k < reps; k++) fn();
  double t = MPI_Wtime() - t0, slowest;
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest / reps;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  nx = argc > 1 ? atoi(argv[1]) : 256;
  int ny = argc > 2 ? atoi(argv[2]) : 256;
  steps = argc > 3 ? atoi(argv[3]) : 20;
  int samples = argc > 4 ? atoi(argv[4]) : 7;
  if (ny % nranks) {
    if (rank == 0) fprintf(stderr, "NY (%d) must be a multiple of the number of ranks (%d)\n", ny, nranks);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  rows = ny / nranks;
  u0 = malloc(sizeof(double) * nx * rows);
  du0 = malloc(sizeof(double) * nx * rows);
  for (int j = 0; j < rows; j++)
    for (int i = 0; i < nx; i++) {
      double x = (double)i / nx - 0.5, y = (double)(rank * rows + j) / ny - 0.5;
      u0[j * nx + i] = exp(-20 * (x * x + y * y)) + 0.1 * sin(7 * x + 3 * y);
    }

  /* the check: a few points of every rank's block, central differences of the global energy */
  gradient();
  int bad = 0;
  for (int q = 0; q < nranks; q++)
    for (int k = 0; k < 3; k++) {
      int idx = ((k + 1) * rows / 4) * nx + (k + 1) * nx / 4 + q;
      double save = u0[idx], h = 1e-6;
      if (rank == q) u0[idx] = save + h;
      double up = global_energy();
      if (rank == q) u0[idx] = save - h;
      double down = global_energy();
      if (rank == q) {
        u0[idx] = save;
        double fd = (up - down) / (2 * h);
        if (!(fabs(du0[idx] - fd) <= 1e-5 * (fabs(fd) > 1 ? fabs(fd) : 1))) {
          fprintf(stderr, "rank %d: gradient[%d] = %.12g, central difference %.12g\n", rank, idx, du0[idx], fd);
          bad = 1;
        }
      }
    }
  int any_bad;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

  double tp[1000], tg[1000];
  int reps = 1;
  if (samples > 0 && !any_bad) {
    /* calls per sample: enough for 0.1 s of the primal on the slowest rank (at least 3), from
       the fastest of three single calls */
    double once = timed(primal, 1);
    for (int k = 0; k < 2; k++) {
      double t = timed(primal, 1);
      if (t < once) once = t;
    }
    double r = 0.1 / (once > 1e-9 ? once : 1e-9);
    reps = r < 3 ? 3 : (int)r;
    MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
    timed(gradient, 1); /* warm-up */
    for (int s = 0; s < samples && s < 1000; s++) {
      tp[s] = timed(primal, reps);
      tg[s] = timed(gradient, reps);
    }
    qsort(tp, samples, sizeof(double), cmp);
    qsort(tg, samples, sizeof(double), cmp);
  }
  if (rank == 0) {
    printf("{\"ranks\": %d, \"nx\": %d, \"ny\": %d, \"steps\": %d, \"check\": \"%s\"", nranks, nx, ny, steps,
           any_bad ? "failed" : "ok");
    if (samples > 0 && !any_bad)
      printf(", \"samples\": %d, \"reps\": %d, \"primal_median_s\": %.9g, \"primal_min_s\": %.9g, "
             "\"gradient_median_s\": %.9g, \"gradient_min_s\": %.9g",
             samples, reps, tp[samples / 2], tp[0], tg[samples / 2], tg[0]);
    printf("}\n");
  }
  free(u0);
  free(du0);
  MPI_Finalize();
  return any_bad;
}
