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

static void check_array(const char *what, const double *got, const double *want, int n, double tol) {
  char name[96];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    check_close(name, got[i], want[i], tol);
  }
}
#endif
