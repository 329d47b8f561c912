/* Forward mode through function pointers: a callback passed to a noinline integrator, a
 * constant table indexed at run time, a pointer kept in a struct in writable memory (its
 * candidates guessed from the functions whose address is taken), a pointer returned by a
 * noinline function, a right-hand side writing through pointers (an RK2 step), and vector mode
 * (two directions at once); each tangent checked against central differences of the
 * function itself. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);
typedef double (*scalar_fn)(double, double);
typedef void (*rhs_fn)(const double *, double *, double);

__attribute__((noinline)) double decay(double t, double k) { return exp(-k * t) * cos(t); }
__attribute__((noinline)) double bump(double t, double k) { return k * t / (1.0 + k * t * t); }
__attribute__((noinline)) double wave(double t, double k) { return sin(k * t) * t; }

/* The trapezoid rule on [0, 1] of a callback. */
__attribute__((noinline)) double integrate(scalar_fn g, double k, int m) {
  double s = 0.5 * (g(0.0, k) + g(1.0, k));
  for (int i = 1; i < m; i++) s += g((double)i / m, k);
  return s / m;
}

static scalar_fn const TABLE[3] = {decay, bump, wave};

struct model {
  int id;
  scalar_fn eval;
  double scale;
};

__attribute__((noinline)) scalar_fn pick(int which) { return which ? bump : wave; }

__attribute__((noinline)) void spring(const double *y, double *dy, double k) {
  dy[0] = y[1];
  dy[1] = -k * sin(y[0]) - 0.1 * y[1];
}
__attribute__((noinline)) void drag(const double *y, double *dy, double k) {
  dy[0] = y[1];
  dy[1] = -k * y[0] - 0.3 * y[1] * fabs(y[1]);
}
static rhs_fn const RHS[2] = {spring, drag};

/* One function of (x[0], x[1]) exercising each shape; `which` selects the candidates. */
static double f(const double *x, int which) {
  double k = x[0], a = x[1];
  double r = integrate(TABLE[which % 3], k, 16) * a;            /* a callback from a table */
  struct model m = {which, which & 1 ? decay : wave, a};      /* a pointer in a struct */
  struct model *volatile mp = &m;                             /* (kept in memory) */
  r += mp->eval(a, k) * mp->scale;
  r += pick(which & 1)(k, a);                                   /* a returned pointer */
  double y[2] = {a, k}, dy[2], mid[2];
  rhs_fn rhs = RHS[which & 1];
  for (int s = 0; s < 4; s++) {                               /* RK2 steps through a pointer */
    rhs(y, dy, k);
    for (int i = 0; i < 2; i++) mid[i] = y[i] + 0.05 * dy[i];
    rhs(mid, dy, k);
    for (int i = 0; i < 2; i++) y[i] += 0.1 * dy[i];
  }
  return r + y[0] * y[1];
}

static int WHICH;
static double f_of(const double *x, int n) {
  (void)n;
  return f(x, WHICH);
}

/* f into y[0], for vector mode's output shadows */
static void f_into(const double *x, double *y, int which) { y[0] = f(x, which); }

int main(void) {
  double x[2] = {0.7, 1.3}, v[2] = {0.4, -0.9}, w[2] = {1.0, 0.5};
  for (WHICH = 0; WHICH < 4; WHICH++) {
    double dx[2] = {v[0], v[1]};
    check_close("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, WHICH),
                fd_dir(f_of, x, v, 2), 1e-6);
    /* two directions at once (enzyme_width 2) */
    double y[1], dy0[1], dy1[1];
    __enzyme_fwddiff((void *)f_into, enzyme_width, 2, enzyme_dup, x, v, w, enzyme_dupnoneed, y, dy0, dy1,
                     enzyme_const, WHICH);
    check_close("fwd width 2, v", dy0[0], fd_dir(f_of, x, v, 2), 1e-6);
    check_close("fwd width 2, w", dy1[0], fd_dir(f_of, x, w, 2), 1e-6);
  }
  return check_finish();
}
