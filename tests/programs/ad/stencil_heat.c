/* A 1-D heat equation stepped in time with two buffers swapped by pointer each step (explicit
 * finite differences, a nonlinear source term); gradient of the final energy w.r.t. the initial
 * state and the diffusion coefficient. */
#include "check.h"

typedef struct { double dk; } grad1;
extern double __enzyme_autodiff(void *, ...);
enum { N = 40, STEPS = 30 };

static double heat(double *u0, double kappa, int n, int steps) {
  double a[N], b[N];
  double *cur = a, *next = b;
  for (int i = 0; i < n; i++) cur[i] = u0[i];
  for (int t = 0; t < steps; t++) {
    next[0] = cur[0];
    next[n - 1] = cur[n - 1];
    for (int i = 1; i < n - 1; i++)
      next[i] = cur[i] + kappa * (cur[i - 1] - 2 * cur[i] + cur[i + 1]) - 0.01 * cur[i] * cur[i] * cur[i];
    double *tmp = cur;
    cur = next;
    next = tmp;
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += cur[i] * cur[i] * (1.0 + 0.01 * i);
  return e;
}

static double U0[N], KAPPA = 0.23;
static double fu(const double *u) { return heat((double *)u, KAPPA, N, STEPS); }
static double fk(double k) { return heat(U0, k, N, STEPS); }

int main(void) {
  double du[N] = {0};
  for (int i = 0; i < N; i++) U0[i] = exp(-0.02 * (i - 15) * (i - 15)) + 0.1 * sin(i);
  double dk = __enzyme_autodiff((void *)heat, enzyme_dup, U0, du, KAPPA, enzyme_const, N, enzyme_const, STEPS);
  for (int i = 0; i < N; i += 3) check_close("dE/du0", du[i], fd_array(fu, U0, i), 1e-6);
  check_close("dE/dkappa", dk, fd1(fk, KAPPA), 1e-6);
  return check_finish();
}
