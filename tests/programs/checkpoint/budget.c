/* The heat equation (as in memory_loops.c) on m = 1026 points, so that a snapshot is the 8192
 * bytes of u[1..m-2] the body overwrites plus a state block of a few dozen: a tape budget of
 * B bytes gives floor(B / snapshot) snapshots.  For each trip count n given, prints
 *   n  steps-run-again  snapshots  dk  fd(dk)  du[j] fd(du[j]) for j in 0, 300, 513
 * with the runtime's counters (`__xenzyme_checkpoint_steps`, `__xenzyme_checkpoint_snapshots`),
 * which tests/test_checkpointing.py compares with revolve's optimum for the c the budget the
 * program is built with implies, and with the program built without checkpoints. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define M 1026

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;
long __xenzyme_checkpoint_steps, __xenzyme_checkpoint_snapshots;

/* (one loop: the objective, sum_j w_j u_j, is the seed of du) */
void heat(double *u, int m, double k, int nsteps) {
  for (int t = 0; t < nsteps; t++)
    for (int j = 1; j < m - 1; j++) u[j] = u[j] + k * (u[j - 1] - 2 * u[j] + u[j + 1]);
}

static double weight(int j) { return (double)(j + 1) / M; }

static double u0[M], u[M], du[M];

static double primal(double k, int n, int j, double h) {
  for (int i = 0; i < M; i++) u[i] = u0[i];
  u[j] += h;
  heat(u, M, k, n);
  double s = 0;
  for (int i = 0; i < M; i++) s += weight(i) * u[i];
  return s;
}

int main(int argc, char **argv) {
  const double k = 0.2, h = 1e-6;
  for (int i = 0; i < M; i++) u0[i] = sin(0.1 + 2.9 * i / (M - 1));
  for (int a = 1; a < argc; a++) {
    int n = atoi(argv[a]);
    for (int i = 0; i < M; i++) u[i] = u0[i], du[i] = weight(i);
    __xenzyme_checkpoint_steps = 0;
    __xenzyme_checkpoint_snapshots = 0;
    double dk = __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_const, M, k, enzyme_const, n);
    double fdk = (primal(k + h, n, 0, 0) - primal(k - h, n, 0, 0)) / (2 * h);
    printf("%d %ld %ld %.17g %.17g", n, __xenzyme_checkpoint_steps, __xenzyme_checkpoint_snapshots, dk, fdk);
    const int js[3] = {0, 300, 513};
    for (int q = 0; q < 3; q++) {
      int j = js[q];
      printf(" %.17g %.17g", du[j], (primal(k, n, j, h) - primal(k, n, j, -h)) / (2 * h));
    }
    printf("\n");
  }
  return 0;
}
