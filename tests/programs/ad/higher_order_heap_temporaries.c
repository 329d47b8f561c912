/* Second derivatives by reverse mode over reverse mode of functions that malloc temporaries:
 * the inner gradient's heap memory (the temporaries' shadows, its caches, the tapes of calls
 * that are not inlined) gets shadows from the outer derivative, which must give them all back
 * (the sanitizer run checks that none leaks).  Shapes: a temporary of run-time length in the
 * differentiated function, a callee (not inlined) that mallocs and frees its own temporary in
 * a loop, and a wrapper returning malloc'd memory freed by its caller.  Checked against closed
 * forms. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static int N = 5;

/* f(x) = sum_i t_i t_{n-1-i}, t_i = sin((i+1) x), the t_i kept in a heap temporary */
static double pairs(double x) {
  int n = N;
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = sin((i + 1) * x);
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[n - 1 - i];
  free(t);
  return s;
}
static double d_pairs(double x) { return __enzyme_autodiff((void *)pairs, x); }
static double dd_pairs(double x) { return __enzyme_autodiff((void *)d_pairs, x); }

static double pairs_second(double x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    int j = N - 1 - i;
    double a = i + 1, b = j + 1;
    double ti = sin(a * x), tj = sin(b * x), dti = a * cos(a * x), dtj = b * cos(b * x);
    s += -a * a * ti * tj + 2 * dti * dtj - b * b * ti * tj;
  }
  return s;
}

/* g(x) = sum_k e(x, k), e(x, k) = sum_{j<k} exp(x j / k) from a callee's own temporary */
__attribute__((noinline)) double exps(double x, int k) {
  double *w = malloc(k * sizeof(double));
  for (int j = 0; j < k; j++) w[j] = exp(x * j / k);
  double s = 0;
  for (int j = k - 1; j >= 0; j--) s += w[j];
  free(w);
  return s;
}
static double sum_exps(double x) {
  double s = 0;
  for (int k = 1; k <= 3; k++) s += exps(x, k) * k;
  return s;
}
static double d_sum_exps(double x) { return __enzyme_autodiff((void *)sum_exps, x); }
static double dd_sum_exps(double x) { return __enzyme_autodiff((void *)d_sum_exps, x); }

static double sum_exps_second(double x) {
  double s = 0;
  for (int k = 1; k <= 3; k++)
    for (int j = 0; j < k; j++) s += k * ((double)j / k) * ((double)j / k) * exp(x * j / k);
  return s;
}

/* h(x) = x^2 * x^3 through a buffer a wrapper allocates and fills, freed here */
__attribute__((noinline)) double *powers(double x) {
  double *p = malloc(2 * sizeof(double));
  p[0] = x * x;
  p[1] = p[0] * x;
  return p;
}
static double quintic(double x) {
  double *p = powers(x);
  double r = p[0] * p[1];
  free(p);
  return r;
}
static double d_quintic(double x) { return __enzyme_autodiff((void *)quintic, x); }
static double dd_quintic(double x) { return __enzyme_autodiff((void *)d_quintic, x); }

int main(void) {
  static const double xs[] = {-0.7, 0.3, 1.4};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    check_close("pairs'", d_pairs(x), fd1(pairs, x), 1e-6);
    check_close("pairs''", dd_pairs(x), pairs_second(x), 1e-10);
    check_close("sum_exps'", d_sum_exps(x), fd1(sum_exps, x), 1e-6);
    check_close("sum_exps''", dd_sum_exps(x), sum_exps_second(x), 1e-10);
    check_close("quintic'", d_quintic(x), 5 * x * x * x * x, 1e-12);
    check_close("quintic''", dd_quintic(x), 20 * x * x * x, 1e-12);
  }
  return check_finish();
}
