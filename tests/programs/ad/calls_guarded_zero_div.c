/* Divisions guarded by a branch on the denominator, with denominators that are exactly zero:
 * the untaken division must contribute nothing (LLVM may speculate it into a select, where its
 * adjoint is zero and 0 / 0 must not become NaN).  A noinline double callee returning a flag,
 * a float version in a loop, and an inline guard on a ratio of array elements. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 6 };

__attribute__((noinline)) int safe_div(double a, double b, double *q) {
  if (fabs(b) < 1e-3) return 0;
  *q = a / b;
  return 1;
}

static double f(const double *v, int n) {
  double s = 0;
  int ok = 0;
  for (int i = 0; i + 1 < n; i++) {
    double q = 0;
    ok += safe_div(v[i], v[i + 1], &q);
    s += q * v[i];
  }
  return s * ok;
}

__attribute__((noinline)) int safe_div_f(float a, float b, float *q) {
  if (b == 0.0f) return 0;
  *q = a / b;
  return 1;
}

static float g(const float *v, int n) {
  float s = 0;
  for (int i = 0; i + 1 < n; i++) {
    float q = 0;
    if (safe_div_f(v[i] * v[i], v[i + 1], &q)) s += q;
  }
  return s;
}

static double h(const double *v, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += v[i + 1] != 0.0 ? v[i] / v[i + 1] : v[i];
  return s;
}

int main(void) {
  double v[N] = {1.5, 0.0, 0.0, 2.0, -1.0, 0.5}, dv[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, v, dv, enzyme_const, N);
  /* Pairs (0,1) and (1,2) do not divide; (2,3), (3,4), (4,5) do: ok = 3, f = 3 sum v_i^2 / v_i+1. */
  double want[N] = {0};
  for (int i = 2; i + 1 < N; i++) {
    want[i] += 3 * 2 * v[i] / v[i + 1];
    want[i + 1] += 3 * -v[i] * v[i] / (v[i + 1] * v[i + 1]);
  }
  for (int i = 0; i < N; i++) check_close("df/dv", dv[i], want[i], 1e-12);

  float w[N] = {2.0f, 0.0f, 1.5f, 0.0f, 0.0f, 4.0f}, dw[N] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, w, dw, enzyme_const, N);
  /* Pairs (1,2) and (4,5) divide: q = w1^2 / w2 and w4^2 / w5, both with zero numerators. */
  double wantw[N] = {0, 2 * 0.0 / 1.5, -0.0, 0, 2 * 0.0 / 4.0, -0.0};
  for (int i = 0; i < N; i++) check_close("dg/dw", dw[i], wantw[i], 1e-12);

  double u[N] = {1.0, 0.0, 3.0, 2.0, 0.0, 0.0}, du[N] = {0};
  __enzyme_autodiff((void *)h, enzyme_dup, u, du, enzyme_const, N);
  /* i=0: u0/u1 with u1 = 0 -> u0; i=1: u1/u2; i=2: u2/u3; i=3: u3/u4 -> u3; i=4: u4/u5 -> u4. */
  double wantu[N] = {1.0, 1.0 / 3.0, -0.0 / 9.0 + 1.0 / 2.0, -3.0 / 4.0 + 1.0, 1.0, 0.0};
  for (int i = 0; i < N; i++) check_close("dh/du", du[i], wantu[i], 1e-12);
  return check_finish();
}
