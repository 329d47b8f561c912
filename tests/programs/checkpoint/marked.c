/* A time loop marked for binomial checkpointing at the C level (`__enzyme_checkpoint(3)` as
 * the first statement of its body) next to the same loop unmarked, and a marked loop of a
 * function no request differentiates (its marker must go: the program links without a
 * definition of it).  For each trip count n: the steps the marked gradient ran again
 * (`__xenzyme_checkpoint_steps`), its derivatives, those of the unmarked loop, and central
 * differences of the unmarked primal.  Built with -DPRIMAL_BUILD it defines the marker as a weak
 * no-op, as a program also built without xenzyme does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_checkpoint(int checkpoints);
#ifdef PRIMAL_BUILD /* (what a program that is also built without xenzyme adds: xenzyme drops the calls) */
__attribute__((weak)) void __enzyme_checkpoint(int checkpoints) { (void)checkpoints; }
#endif
int enzyme_dup, enzyme_const;
long __xenzyme_checkpoint_steps;

double marked(const double *p, double x, int n) {
#pragma clang loop unroll(disable)
  for (int t = 0; t < n; t++) {
    __enzyme_checkpoint(3);
    x = x * p[0] + 0.01 * sin(x) + p[1];
  }
  return x;
}

double unmarked(const double *p, double x, int n) {
#pragma clang loop unroll(disable)
  for (int t = 0; t < n; t++) {
    x = x * p[0] + 0.01 * sin(x) + p[1];
  }
  return x;
}

double primal_only(double x, int n) {
  for (int t = 0; t < n; t++) {
    __enzyme_checkpoint(2);
    x = 0.5 * x + 1.0;
  }
  return x;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int n = atoi(argv[i]);
    double p[2] = {0.999, 0.01}, dp[2] = {0, 0}, rp[2] = {0, 0};
    __xenzyme_checkpoint_steps = 0;
    double dx = __enzyme_autodiff((void *)marked, enzyme_dup, p, dp, 0.7, enzyme_const, n);
    long steps = __xenzyme_checkpoint_steps;
    double rx = __enzyme_autodiff((void *)unmarked, enzyme_dup, p, rp, 0.7, enzyme_const, n);
    double h = 1e-6, fd[3];
    for (int k = 0; k < 3; k++) {
      double a[2] = {p[0], p[1]}, b[2] = {p[0], p[1]}, xa = 0.7, xb = 0.7;
      if (k < 2) a[k] += h, b[k] -= h;
      else xa += h, xb -= h;
      fd[k] = (unmarked(a, xa, n) - unmarked(b, xb, n)) / (2 * h);
    }
    printf("%d %ld %.17g %.17g %.17g %.17g %.17g %.17g %.12g %.12g %.12g %.17g\n", n, steps, dp[0], dp[1], dx,
           rp[0], rp[1], rx, fd[0], fd[1], fd[2], primal_only(0.3, n));
  }
  return 0;
}
