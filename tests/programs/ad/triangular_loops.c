/* An inner loop whose bound is the outer induction variable (triangular iteration space):
 * forward substitution with a lower-triangular matrix, x = L^-1 b, then a weighted sum. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 7 };

static double solve(const double *l, const double *b, int n) {
  double x[N];
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = b[i];
    for (int j = 0; j < i; j++) r -= l[i * n + j] * x[j];
    x[i] = r / l[i * n + i];
    s += (i + 1) * x[i];
  }
  return s;
}

static double L[N * N], B[N];
static double fl(const double *l) { return solve(l, B, N); }
static double fb(const double *b) { return solve(L, b, N); }

int main(void) {
  double dl[N * N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) L[i * N + j] = j < i ? 0.3 * sin(i + 2.0 * j) : (j == i ? 2.0 + 0.1 * i : 0.0);
  for (int i = 0; i < N; i++) B[i] = 1.0 - 0.2 * i;
  __enzyme_autodiff((void *)solve, enzyme_dup, L, dl, enzyme_dup, B, db, enzyme_const, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) check_close("ds/dl", dl[i * N + j], fd_array(fl, L, i * N + j), 1e-6);
  for (int i = 0; i < N; i++) check_close("ds/db", db[i], fd_array(fb, B, i), 1e-6);
  return check_finish();
}
