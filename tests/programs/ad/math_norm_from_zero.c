/* Partials that divide by an argument, at an argument that is exactly zero: a norm of a state
 * that starts at zero (acc = 0, then acc = 0.5 acc + hypot(acc, acc) p[i] + p[i]^2, and the
 * same with sqrt(acc)).  a / hypot(a, b) and 1 / (2 sqrt(a)) are 0/0 and 1/0 there; the
 * state's first value is a constant (its tangent and its adjoint's use are zero), so the
 * derivative exists and must not become NaN, in reverse and in forward mode.  Against central
 * differences, and a closed form for hypot(0, x). */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_autodiff1(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;
enum { N = 5 };

static double norm_recurrence(const double *p, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) acc = 0.5 * acc + hypot(acc, acc) * p[i] + p[i] * p[i];
  return acc;
}

static double sqrt_recurrence(const double *p, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) acc = 0.5 * sqrt(acc) + p[i] * p[i];
  return acc;
}

static double zero_first(double x) { return hypot(0.0 * x, x) * x; }

int main(void) {
  double p[N] = {0.3, -0.2, 0.45, 0.1, -0.35}, dp[N] = {0}, v[N], up[N], down[N];
  __enzyme_autodiff((void *)norm_recurrence, enzyme_dup, p, dp, enzyme_const, N);
  const double h = 1e-6;
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "reverse d/dp[%d]", i);
    check_close(name, dp[i], fd_array_n(norm_recurrence, p, N, i), 1e-6);
    v[i] = 0.2 + 0.1 * i;
    up[i] = p[i] + h * v[i];
    down[i] = p[i] - h * v[i];
  }
  double t = __enzyme_fwddiff((void *)norm_recurrence, enzyme_dup, p, v, enzyme_const, N);
  check_close("forward along v", t, (norm_recurrence(up, N) - norm_recurrence(down, N)) / (2 * h), 1e-6);
  double ds[N] = {0};
  __enzyme_autodiff((void *)sqrt_recurrence, enzyme_dup, p, ds, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "sqrt: reverse d/dp[%d]", i);
    check_close(name, ds[i], fd_array_n(sqrt_recurrence, p, N, i), 1e-6);
  }
  t = __enzyme_fwddiff((void *)sqrt_recurrence, enzyme_dup, p, v, enzyme_const, N);
  check_close("sqrt: forward along v", t, (sqrt_recurrence(up, N) - sqrt_recurrence(down, N)) / (2 * h), 1e-6);
  for (double x = -1.5; x < 2; x += 1.1) {
    check_close("hypot(0, x) x, reverse", __enzyme_autodiff1((void *)zero_first, x), 2 * fabs(x), 1e-12);
    check_close("hypot(0, x) x, forward", __enzyme_fwddiff((void *)zero_first, x, 1.0), 2 * fabs(x), 1e-12);
  }
  return check_finish();
}
