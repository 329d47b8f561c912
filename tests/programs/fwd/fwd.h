/* Shared helpers for the forward-mode test programs: check.h's checks and markers, plus
 * `enzyme_width` and central differences along a direction. */
#ifndef XENZYME_FWD_H
#define XENZYME_FWD_H
#include "../ad/check.h"

int enzyme_width;

/* Central difference of a scalar function of n inputs along direction v. */
static double fd_dir(double (*f)(const double *, int), const double *x, const double *v, int n) {
  double xp[64], xm[64], h = 1e-6;
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  return (f(xp, n) - f(xm, n)) / (2 * h);
}

/* Central difference of a map x (n) -> y (m) along direction v, into dy. */
static void fd_map(void (*g)(const double *, double *, int), const double *x, const double *v, int n,
                   double *dy, int m) {
  double xp[64], xm[64], yp[64], ym[64], h = 1e-6;
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  g(xp, yp, n);
  g(xm, ym, n);
  for (int j = 0; j < m; j++) dy[j] = (yp[j] - ym[j]) / (2 * h);
}

/* Central differences of a scalar function of n inputs: the gradient, into g. */
static void fd_grad(double (*f)(const double *, int), const double *x, int n, double *g) {
  double xp[64], h = 1e-6;
  for (int i = 0; i < n; i++) xp[i] = x[i];
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h;
    double up = f(xp, n);
    xp[i] = x[i] - h;
    double down = f(xp, n);
    xp[i] = x[i];
    g[i] = (up - down) / (2 * h);
  }
}

/* The Hessian-vector product H v of f at x from f alone, by central second differences:
 * (H v)_i = d^2/da db f(x + a e_i + b v) at 0, into hv.  A reference independent of any
 * derivative code (a gradient computed by reverse mode included). */
static void fd_hvp(double (*f)(const double *, int), const double *x, const double *v, int n, double *hv) {
  double y[64], h = 1e-4;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int a = -1; a <= 1; a += 2)
      for (int b = -1; b <= 1; b += 2) {
        for (int j = 0; j < n; j++) y[j] = x[j] + b * h * v[j];
        y[i] += a * h;
        s += a * b * f(y, n);
      }
    hv[i] = s / (4 * h * h);
  }
}

static void check_array(const char *what, const double *got, const double *want, int n, double tol) {
  char name[96];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    check_close(name, got[i], want[i], tol);
  }
}
#endif
