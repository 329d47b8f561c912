/* Shared helpers for the MPI gradient test programs.  Every rank checks its own derivatives
 * against central finite differences of the primal, which all ranks evaluate together (the
 * objective is collective); rank 0 reports.  Enzyme's convention: each rank differentiates its
 * part with its return value seeded with 1.0, so the shadows receive the derivative of the sum
 * over ranks of the returned values -- the finite differences are of that sum.  A program exits
 * non-zero (on every rank) if any check failed. */
#ifndef XENZYME_MPI_CHECK_H
#define XENZYME_MPI_CHECK_H
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static int rank, nranks, checks, failures;

static void check_init(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
}

static double sum_over_ranks(double v) {
  double s;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

static void check_value(const char *what, int i, double got, double want, double tol) {
  double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
  checks++;
  if (!(fabs(got - want) <= tol * scale)) {
    printf("FAIL rank %d %s[%d]: got %.17g, expected %.17g\n", rank, what, i, got, want);
    failures++;
  }
}

/* dx[i] (rank r's) against the central difference of the sum over ranks of objective() with
 * rank r's x[i] moved; n may differ between ranks. */
static void check_gradient(const char *what, double *x, const double *dx, int n, double (*objective)(void),
                           double tol) {
  int nmax;
  MPI_Allreduce(&n, &nmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  for (int q = 0; q < nranks; q++) {
    for (int i = 0; i < nmax; i++) {
      int mine = rank == q && i < n;
      double save = mine ? x[i] : 0, h = 1e-6 * (fabs(save) > 1.0 ? fabs(save) : 1.0);
      if (mine) x[i] = save + h;
      double up = sum_over_ranks(objective());
      if (mine) x[i] = save - h;
      double down = sum_over_ranks(objective());
      if (mine) {
        x[i] = save;
        check_value(what, i, dx[i], (up - down) / (2 * h), tol);
      }
    }
  }
}

/* float data: the same, with a step for floats */
static void check_gradientf(const char *what, float *x, const float *dx, int n, double (*objective)(void),
                            double tol) {
  int nmax;
  MPI_Allreduce(&n, &nmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  for (int q = 0; q < nranks; q++) {
    for (int i = 0; i < nmax; i++) {
      int mine = rank == q && i < n;
      float save = mine ? x[i] : 0, h = 1e-2f * (fabsf(save) > 1.0f ? fabsf(save) : 1.0f);
      if (mine) x[i] = save + h;
      double up = sum_over_ranks(objective());
      if (mine) x[i] = save - h;
      double down = sum_over_ranks(objective());
      if (mine) {
        x[i] = save;
        check_value(what, i, dx[i], (up - down) / (2 * (double)h), tol);
      }
    }
  }
}

/* Forward mode: every rank moves its x along its own direction v; rank r's tangent is the
 * derivative of its own objective() (not summed). */
static void check_tangent(const char *what, double *x, const double *v, int n, double (*objective)(void),
                          double tangent, double tol) {
  double h = 1e-6;
  for (int i = 0; i < n; i++) x[i] += h * v[i];
  double up = objective();
  for (int i = 0; i < n; i++) x[i] -= 2 * h * v[i];
  double down = objective();
  for (int i = 0; i < n; i++) x[i] += h * v[i];
  check_value(what, 0, tangent, (up - down) / (2 * h), tol);
}

static int check_finish(void) {
  int total[2], mine[2] = {checks, failures};
  MPI_Allreduce(mine, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total[1]) printf("%d of %d checks FAILED on %d ranks\n", total[1], total[0], nranks);
    else printf("PASS: %d checks on %d ranks\n", total[0], nranks);
  }
  MPI_Finalize();
  return total[1] != 0 || total[0] == 0;
}

#endif
