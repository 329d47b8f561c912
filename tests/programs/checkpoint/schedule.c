/* Counts the steps binomial checkpointing runs again, for several trip counts n: the runtime's
 * counter `__xenzyme_checkpoint_steps` (tests/test_checkpointing.py compares it with revolve's
 * optimum for the c checkpoints the program is built with). */
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

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int n = atoi(argv[i]);
    double p[1] = {0.999}, dp[1] = {0};
    __xenzyme_checkpoint_steps = 0;
    __enzyme_autodiff((void *)chain, enzyme_dup, p, dp, enzyme_const, n);
    double h = 1e-7, q[1] = {p[0] + h}, r[1] = {p[0] - h};
    double fd = (chain(q, n) - chain(r, n)) / (2 * h);
    printf("%d %ld %.12g %.12g\n", n, __xenzyme_checkpoint_steps, dp[0], fd);
  }
  return 0;
}
