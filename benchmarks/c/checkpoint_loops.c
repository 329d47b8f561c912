/* Long time loops for benchmarks/checkpointing.py: one gradient of a 10^6-step loop, with the
 * loop reversed from a cache of every step or from checkpoints (`enzyme{checkpoint=...}`).
 *
 *   ./prog ode  N        a damped pendulum (x, v carried), N steps
 *   ./prog heat N M      the heat equation in place on M points, N steps
 *   ./prog ... primal    the primal only (the baseline of time and memory)
 *
 * Prints the derivatives, the checkpointed runtime's count of steps run again and the CPU
 * seconds of the call (the primal: its result and its CPU seconds). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;
long __xenzyme_checkpoint_steps;

double ode(const double *p, double x0, long nsteps) {
  double x = x0, v = 0.0, dt = 1e-4;
#pragma clang loop unroll(disable)
  for (long t = 0; t < nsteps; t++) {
    double a = -p[0] * sin(x) - p[1] * v;
    x += dt * v;
    v += dt * a;
  }
  return x * x + v * v;
}

double heat(double *u, long m, double k, long nsteps) {
#pragma clang loop unroll(disable)
  for (long t = 0; t < nsteps; t++)
    for (long j = 1; j < m - 1; j++) u[j] = u[j] + k * (u[j - 1] - 2 * u[j] + u[j + 1]);
  double s = 0;
  for (long j = 0; j < m; j++) s += u[j] * u[j] * (double)(j + 1);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  long n = atol(argv[2]);
  int primal = !strcmp(argv[argc - 1], "primal");
  if (!strcmp(argv[1], "ode")) {
    double p[2] = {1.3, 0.2}, dp[2] = {0, 0};
    double start = cpu_seconds();
    if (primal) {
      double r = ode(p, 0.7, n);
      printf("%.15g %.6f\n", r, cpu_seconds() - start);
      return 0;
    }
    double dx0 = __enzyme_autodiff((void *)ode, enzyme_dup, p, dp, 0.7, enzyme_const, n);
    double spent = cpu_seconds() - start;
    printf("%.15g %.15g %.15g %ld %.6f\n", dp[0], dp[1], dx0, __xenzyme_checkpoint_steps, spent);
    return 0;
  }
  long m = atol(argv[3]);
  double *u = malloc(m * sizeof *u), *du = calloc(m, sizeof *du);
  for (long j = 0; j < m; j++) u[j] = sin(0.1 + 3.0 * j / m);
  double start = cpu_seconds();
  if (primal) {
    double r = heat(u, m, 1e-3, n);
    printf("%.15g %.6f\n", r, cpu_seconds() - start);
    return 0;
  }
  double dk = __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_const, m, 1e-3, enzyme_const, n);
  double spent = cpu_seconds() - start;
  printf("%.15g %.15g %.15g %ld %.6f\n", du[1], du[m / 2], dk, __xenzyme_checkpoint_steps, spent);
  free(u);
  free(du);
  return 0;
}
