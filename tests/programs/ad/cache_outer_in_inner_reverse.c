/* Values of an outer loop iteration needed in the reverse of an inner loop: a row's norm and a
 * nonlinear function of an element computed before the inner loop, used in it, then the row
 * overwritten.  Also three levels deep, with the middle value read from memory written later. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { R = 4, C = 5, K = 3 };

static double f(double *m, const double *v, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++) {
    double a = m[i * c] * m[i * c] + 1.0; /* outer value */
    double e = tanh(m[i * c + 1]);
    for (int j = 0; j < c; j++) s += log(a) * v[j] * m[i * c + j] + e * e * v[j];
    for (int j = 0; j < c; j++) m[i * c + j] = 0; /* the row is gone afterwards */
  }
  return s;
}

static double g(double *t, double *u, int r, int c, int k) {
  double s = 0;
  for (int i = 0; i < r; i++) {
    double ui = u[i];
    for (int j = 0; j < c; j++) {
      double tij = t[i * c + j] * ui;
      for (int l = 0; l < k; l++) s += sin(tij * (l + 1)) * ui;
      t[i * c + j] = tij; /* written after use */
    }
    u[i] = 3 * ui;
  }
  return s;
}

static double M[R * C], V[C], T[R * C], U[R];
static double fm(const double *m) {
  double a[R * C];
  for (int i = 0; i < R * C; i++) a[i] = m[i];
  return f(a, V, R, C);
}
static double fv(const double *v) {
  double a[R * C];
  for (int i = 0; i < R * C; i++) a[i] = M[i];
  return f(a, v, R, C);
}
static double gt(const double *t) {
  double a[R * C], b[R];
  for (int i = 0; i < R * C; i++) a[i] = t[i];
  for (int i = 0; i < R; i++) b[i] = U[i];
  return g(a, b, R, C, K);
}
static double gu(const double *u) {
  double a[R * C], b[R];
  for (int i = 0; i < R * C; i++) a[i] = T[i];
  for (int i = 0; i < R; i++) b[i] = u[i];
  return g(a, b, R, C, K);
}

int main(void) {
  double m[R * C], dm[R * C] = {0}, v[C], dv[C] = {0};
  for (int i = 0; i < R * C; i++) M[i] = m[i] = 0.3 * cos(0.9 * i) + 0.1;
  for (int j = 0; j < C; j++) V[j] = v[j] = 1.0 - 0.2 * j;
  __enzyme_autodiff((void *)f, enzyme_dup, m, dm, enzyme_dup, v, dv, enzyme_const, R, enzyme_const, C);
  for (int i = 0; i < R * C; i++) check_close("df/dm", dm[i], fd_array(fm, M, i), 1e-6);
  for (int j = 0; j < C; j++) check_close("df/dv", dv[j], fd_array(fv, V, j), 1e-6);

  double t[R * C], dt[R * C] = {0}, u[R], du[R] = {0};
  for (int i = 0; i < R * C; i++) T[i] = t[i] = 0.2 + 0.1 * sin(i);
  for (int i = 0; i < R; i++) U[i] = u[i] = 0.8 + 0.3 * i;
  __enzyme_autodiff((void *)g, enzyme_dup, t, dt, enzyme_dup, u, du, enzyme_const, R, enzyme_const, C, enzyme_const, K);
  for (int i = 0; i < R * C; i++) check_close("dg/dt", dt[i], fd_array(gt, T, i), 1e-6);
  for (int i = 0; i < R; i++) check_close("dg/du", du[i], fd_array(gu, U, i), 1e-6);
  return check_finish();
}
