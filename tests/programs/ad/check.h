/* Shared helpers for the gradient test programs: each program computes derivatives with
 * __enzyme_autodiff, compares them with central finite differences or exact values, prints one
 * line per check and exits non-zero if any check fails. */
#ifndef XENZYME_CHECK_H
#define XENZYME_CHECK_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;

static int check_failures = 0;

static void check_close(const char *what, double got, double want, double tol) {
  double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
  if (!(fabs(got - want) <= tol * scale)) {
    printf("FAIL %s: got %.17g, expected %.17g\n", what, got, want);
    check_failures++;
  } else {
    printf("ok   %s = %.12g\n", what, got);
  }
}

/* Central difference of a scalar function of one variable. */
static double fd1(double (*f)(double), double x) {
  double h = 1e-6 * (fabs(x) > 1.0 ? fabs(x) : 1.0);
  return (f(x + h) - f(x - h)) / (2 * h);
}

/* Central difference of g with respect to x[i] (g reads the array x). */
static double fd_array(double (*g)(const double *), double *x, int i) {
  double h = 1e-6 * (fabs(x[i]) > 1.0 ? fabs(x[i]) : 1.0), save = x[i];
  x[i] = save + h;
  double up = g(x);
  x[i] = save - h;
  double down = g(x);
  x[i] = save;
  return (up - down) / (2 * h);
}

/* Central difference of g with respect to x[i] for a function that also takes a length. */
static double fd_array_n(double (*g)(const double *, int), double *x, int n, int i) {
  double h = 1e-6 * (fabs(x[i]) > 1.0 ? fabs(x[i]) : 1.0), save = x[i];
  x[i] = save + h;
  double up = g(x, n);
  x[i] = save - h;
  double down = g(x, n);
  x[i] = save;
  return (up - down) / (2 * h);
}

/* Every element of a[0..n) must be exactly zero (shadows of outputs after a reverse sweep). */
static void check_zero(const char *what, const double *a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] != 0.0) {
      printf("FAIL %s[%d] = %.17g, expected 0\n", what, i, a[i]);
      check_failures++;
      return;
    }
  }
  printf("ok   %s all zero\n", what);
}

static void check_zerof(const char *what, const float *a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] != 0.0f) {
      printf("FAIL %s[%d] = %.9g, expected 0\n", what, i, (double)a[i]);
      check_failures++;
      return;
    }
  }
  printf("ok   %s all zero\n", what);
}

/* The gradient of f (reading x[0..n)) by __enzyme_autodiff, each component against central
 * differences.  A macro: the call must name the function itself. */
#define CHECK_GRADIENT_FD(f, x, n)                                  \
  do {                                                              \
    double dx_[n];                                                  \
    for (int i_ = 0; i_ < (n); i_++) dx_[i_] = 0;                   \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_);               \
    for (int i_ = 0; i_ < (n); i_++) {                              \
      char what_[64];                                               \
      snprintf(what_, sizeof what_, "%s d/dx[%d]", #f, i_);         \
      check_close(what_, dx_[i_], fd_array(f, x, i_), 1e-6);        \
    }                                                               \
  } while (0)

static int check_finish(void) {
  if (check_failures) {
    printf("%d check(s) FAILED\n", check_failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}

#endif
