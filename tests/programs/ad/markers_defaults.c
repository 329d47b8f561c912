/* Every argument marker and Enzyme's defaults in one program: unmarked double (active),
 * unmarked pointer (dup), unmarked int (const), enzyme_out, enzyme_const on a double and on a
 * pointer, enzyme_dup, enzyme_dupnoneed; the same function differentiated with several
 * activity patterns. */
#include "check.h"

typedef struct { double da, db; } grad2;
extern double __enzyme_autodiff(void *, ...);
extern grad2 __enzyme_autodiff_2(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 4 };

static double f(double a, const double *x, int n, double b, double *out) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * a + b * x[i];
  *out = s * b;
  return s + a * b;
}

static double X[N] = {0.5, -0.25, 1.5, 2.0};
static double sumsq(void) { double s = 0; for (int i = 0; i < N; i++) s += X[i] * X[i]; return s; }
static double sum(void) { double s = 0; for (int i = 0; i < N; i++) s += X[i]; return s; }

int main(void) {
  double a = 0.8, b = -1.2, out, dout, dx[N];

  /* Defaults: a active, x dup, n const, b active, out dup. Seed of out = 0. */
  for (int i = 0; i < N; i++) dx[i] = 0;
  dout = 0;
  grad2 g = __enzyme_autodiff_2((void *)f, a, X, dx, N, b, &out, &dout);
  check_close("df/da", g.da, sumsq() + b, 1e-12);
  check_close("df/db", g.db, sum() + a, 1e-12);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], 2 * X[i] * a + b, 1e-12);

  /* Explicit markers: a enzyme_out, x enzyme_const, b enzyme_const, out enzyme_dupnoneed with seed 1. */
  dout = 1.0;
  double da = __enzyme_autodiff((void *)f, enzyme_out, a, enzyme_const, X, enzyme_const, N, enzyme_const, b,
                                enzyme_dupnoneed, &out, &dout);
  check_close("d(f + out)/da", da, sumsq() + b + sumsq() * b, 1e-12);
  check_close("dout reset", dout, 0.0, 0.0);

  /* Only x active (a, b const), out enzyme_dup with seed 2: the result is void. */
  for (int i = 0; i < N; i++) dx[i] = 0;
  dout = 2.0;
  __enzyme_autodiff_v((void *)f, enzyme_const, a, enzyme_dup, X, dx, enzyme_const, N, enzyme_const, b, enzyme_dup, &out, &dout);
  for (int i = 0; i < N; i++) check_close("d(f + 2 out)/dx", dx[i], (2 * X[i] * a + b) * (1 + 2 * b), 1e-12);
  check_close("out primal", out, (a * sumsq() + b * sum()) * b, 1e-12);
  return check_finish();
}
