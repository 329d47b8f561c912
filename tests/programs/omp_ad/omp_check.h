/* Shared helpers for the OpenMP gradient programs (tests/test_openmp_gradients.py): check.h's
 * checks and markers, plus
 *
 * - XZ_DIFF(call, reference): the derivative call as written for xenzyme (`__enzyme_autodiff` or
 *   `__enzyme_fwddiff` on a function with `#pragma omp` constructs).  Built with -DXZ_SELFCHECK
 *   the program calls `reference` instead: a serial, hand-written derivative of the same function,
 *   kept in the program under `#ifdef XZ_SELFCHECK`.  The program then passes with clang alone,
 *   which shows that its checks and tolerances accept a right derivative at every thread count.
 * - XZ_SEED: every reference multiplies the seed it starts from (the adjoint of the result in
 *   reverse mode, the input tangents in forward mode) by it; 1 unless defined.  Built with
 *   -DXZ_SEED=1.001 the references are wrong by 0.1 %, and the program must fail: its checks
 *   reject a wrong derivative.
 * - XZ_PRINT=1 in the environment: each checked derivative is also printed, one value a line,
 *   `D name index value` (`F` for float data) with %.17g, so that runs can be compared.
 * - central differences of a loss that reads global arrays (`fd_at`), over every coordinate of
 *   an array (`check_fd`) or along one direction through all of them (`check_fd_dir`, which
 *   catches a wrong value anywhere in a long gradient for the price of two evaluations).
 */
#ifndef XENZYME_OMP_CHECK_H
#define XENZYME_OMP_CHECK_H
#include <omp.h>
#include <string.h>

#include "../ad/check.h"

int enzyme_width;

#ifdef XZ_SELFCHECK
#define XZ_DIFF(call, reference) (reference)
#else
#define XZ_DIFF(call, reference) (call)
#endif

#ifndef XZ_SEED
#define XZ_SEED 1.0
#endif

static int xz_printing(void) {
  static int on = -1;
  if (on < 0) {
    const char *e = getenv("XZ_PRINT");
    on = e && *e && strcmp(e, "0") != 0;
  }
  return on;
}

static void xz_print(const char *name, const double *g, int n) {
  if (xz_printing())
    for (int i = 0; i < n; i++) printf("D %s %d %.17g\n", name, i, g[i]);
}

static void xz_printf(const char *name, const float *g, int n) {
  if (xz_printing())
    for (int i = 0; i < n; i++) printf("F %s %d %.17g\n", name, i, (double)g[i]);
}

static void xz_print1(const char *name, double v) { xz_print(name, &v, 1); }

/* Central difference of f() with respect to *p (f reads the array p points into). */
static double fd_at(double (*f)(void), double *p) {
  double h = 1e-6 * (fabs(*p) > 1.0 ? fabs(*p) : 1.0), save = *p;
  *p = save + h;
  double up = f();
  *p = save - h;
  double down = f();
  *p = save;
  return (up - down) / (2 * h);
}

/* g[i] against central differences of f with respect to p[i], for every i; prints g. */
static void check_fd(const char *what, const double *g, double *p, int n, double (*f)(void), double tol) {
  char name[96];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    check_close(name, g[i], fd_at(f, p + i), tol);
  }
  xz_print(what, g, n);
}

/* A fixed direction with entries in [-1, 1] that vary from one coordinate to the next. */
static double xz_dir(int i) { return sin(1.0 + 2.3 * i); }

/* sum_i g[i] v[i] against the central difference of f along v (v = xz_dir); prints g. */
static void check_fd_dir(const char *what, const double *g, double *p, int n, double (*f)(void), double tol) {
  double *save = malloc(sizeof(double) * (size_t)n), gv = 0, h = 1e-6;
  memcpy(save, p, sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) gv += g[i] * xz_dir(i);
  for (int i = 0; i < n; i++) p[i] = save[i] + h * xz_dir(i);
  double up = f();
  for (int i = 0; i < n; i++) p[i] = save[i] - h * xz_dir(i);
  double down = f();
  memcpy(p, save, sizeof(double) * (size_t)n);
  free(save);
  char name[96];
  snprintf(name, sizeof name, "%s . v", what);
  check_close(name, gv, (up - down) / (2 * h), tol);
  xz_print(what, g, n);
}

/* got[i] against want[i] for every i (exact values); prints got. */
static void check_all(const char *what, const double *got, const double *want, int n, double tol) {
  char name[96];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    check_close(name, got[i], want[i], tol);
  }
  xz_print(what, got, n);
}

static void check_allf(const char *what, const float *got, const double *want, int n, double tol) {
  char name[96];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    check_close(name, got[i], want[i], tol);
  }
  xz_printf(what, got, n);
}

/* A scalar derivative against its reference; prints it. */
static void check_one(const char *what, double got, double want, double tol) {
  check_close(what, got, want, tol);
  xz_print1(what, got);
}

/* The bytes of a[0..n) must equal those of b (data a derivative must leave as it was). */
static void check_same(const char *what, const void *a, const void *b, size_t bytes) {
  if (memcmp(a, b, bytes) != 0) {
    printf("FAIL %s changed\n", what);
    check_failures++;
  } else {
    printf("ok   %s unchanged\n", what);
  }
}
#endif
