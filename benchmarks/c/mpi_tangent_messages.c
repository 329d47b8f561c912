/* Forward mode's tangent messages: a second message beside the value's, or one message packing
   value and tangent (two copies in, two out).  A ring exchange with MPI_Sendrecv of n doubles,
   per exchange of a value and its tangent (microseconds, the best of 5 trials, the slowest rank).
   Not part of `make bench`; run it by hand:

     mpicc -O2 mpi_tangent_messages.c -o tm
     for np in 2 4; do mpirun --oversubscribe -np $np ./tm; done

   Figures: xenzyme/rules/mpi.py. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (r + 1) % p, left = (r + p - 1) % p;
  int sizes[] = {1, 16, 64, 128, 256, 1024, 4096, 65536};
  for (int s = 0; s < 8; s++) {
    int n = sizes[s];
    double *v = calloc(n, 8), *t = calloc(n, 8), *rv = calloc(n, 8), *rt = calloc(n, 8);
    double *pk = calloc(2 * n, 8), *rpk = calloc(2 * n, 8);
    int reps = n >= 4096 ? 200 : 2000;
    double two = 1e9, packed = 1e9;
    for (int trial = 0; trial < 5; trial++) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int k = 0; k < reps; k++) {
        MPI_Sendrecv(v, n, MPI_DOUBLE, right, 0, rv, n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(t, n, MPI_DOUBLE, right, 0, rt, n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      double t1 = MPI_Wtime();
      MPI_Barrier(MPI_COMM_WORLD);
      double t2 = MPI_Wtime();
      for (int k = 0; k < reps; k++) {
        memcpy(pk, v, 8 * n);
        memcpy(pk + n, t, 8 * n);
        MPI_Sendrecv(pk, 2 * n, MPI_DOUBLE, right, 0, rpk, 2 * n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        memcpy(rv, rpk, 8 * n);
        memcpy(rt, rpk + n, 8 * n);
      }
      double t3 = MPI_Wtime();
      if (t1 - t0 < two) two = t1 - t0;
      if (t3 - t2 < packed) packed = t3 - t2;
    }
    double best[2] = {two, packed}, slowest[2];
    MPI_Reduce(best, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (r == 0)
      printf("%d ranks, n = %6d: two messages %8.2f us, packed %8.2f us, two / packed %.2f\n", p, n,
             1e6 * slowest[0] / reps, 1e6 * slowest[1] / reps, slowest[0] / slowest[1]);
    free(v), free(t), free(rv), free(rt), free(pk), free(rpk);
  }
  MPI_Finalize();
  return 0;
}
