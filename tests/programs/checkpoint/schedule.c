/* Counts the steps binomial checkpointing runs again, for several trip counts n: the runtime's
 * counter `__xenzyme_checkpoint_steps` (tests/test_checkpointing.py compares it with revolve's
 * optimum for the c checkpoints the program is built with), for a counted loop (chain) and a
 * loop run until x passes a limit (until: n found as it runs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;
long __xenzyme_checkpoint_steps;

double chain(const double *p, int nsteps) {
  double x = 1.0;
#pragma clang loop unroll(disable)
  for (int t = 0; t < nsteps; t++) x = x * p[0] + 0.01 * sin(x);
  return x;
}

double until(const double *p, double limit) {
  double x = 1.0;
#pragma clang loop unroll(disable)
  while (x < limit) x = x * p[0] + 0.01 * sqrt(x);
  return x;
}

/* A limit that `until` passes after exactly n steps (halfway between the values before and
 * after the n-th). */
static double limit_after(double p, int n) {
  double x = 1.0, before = 0.5;
  for (int k = 0; k < n; k++) {
    before = x;
    x = x * p + 0.01 * sqrt(x);
  }
  return n ? 0.5 * (before + x) : 0.5;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int n = atoi(argv[i]);
    double p[1] = {0.999}, dp[1] = {0};
    __xenzyme_checkpoint_steps = 0;
    __enzyme_autodiff((void *)chain, enzyme_dup, p, dp, enzyme_const, n);
    double h = 1e-7, q[1] = {p[0] + h}, r[1] = {p[0] - h};
    double fd = (chain(q, n) - chain(r, n)) / (2 * h);
    printf("chain %d %ld %.12g %.12g\n", n, __xenzyme_checkpoint_steps, dp[0], fd);
    double u[1] = {1.01}, du[1] = {0}, lim = limit_after(u[0], n);
    __xenzyme_checkpoint_steps = 0;
    __enzyme_autodiff((void *)until, enzyme_dup, u, du, enzyme_const, lim);
    double a[1] = {u[0] + h}, b[1] = {u[0] - h};
    printf("until %d %ld %.12g %.12g\n", n, __xenzyme_checkpoint_steps, du[0], (until(a, lim) - until(b, lim)) / (2 * h));
  }
  return 0;
}
