/* Callbacks of other shapes: an accumulating visitor `void (*visit)(double *acc, double v, double w)`
 * called in a loop (it writes the derivative-carrying sum through a pointer), a mutable global
 * array of structs {float pointer, coefficient} whose entries main rewrites between calls,
 * recursion through a function pointer held in a mutable global (a power function calling
 * itself through it), and a function pointer chosen by a select on a float comparison. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 7 };

typedef void (*visitor)(double *acc, double v, double w);
__attribute__((noinline)) void visit_sq(double *acc, double v, double w) { *acc += w * v * v; }
__attribute__((noinline)) void visit_log(double *acc, double v, double w) { acc[0] = acc[0] * 0.9 + w * log(1.0 + v * v); }

__attribute__((noinline)) double fold(visitor f, const double *x, const double *w, int n) {
  double acc = 0.5;
  for (int i = 0; i < n; i++) f(&acc, x[i], w[i]);
  return acc;
}

static double folds(const double *x, const double *w, int n, int which) {
  visitor f = which ? visit_log : visit_sq;
  return fold(f, x, w, n) * fold(visit_sq, w, x, n);
}

/* Stages of a pipeline kept in a writable global table. */
struct stage {
  double (*apply)(double v, double c);
  double c;
};
__attribute__((noinline)) double st_scale(double v, double c) { return c * v; }
__attribute__((noinline)) double st_shift_sin(double v, double c) { return sin(v + c); }
__attribute__((noinline)) double st_soft(double v, double c) { return v / (c + fabs(v)); }
static struct stage STAGES[3] = {{st_scale, 1.5}, {st_shift_sin, 0.2}, {st_soft, 2.0}};

static double pipeline(double x) {
  double v = x;
  for (int r = 0; r < 2; r++)
    for (int s = 0; s < 3; s++) v = STAGES[s].apply(v, STAGES[s].c) + 0.1 * x;
  return v;
}

/* x^n by recursion through a pointer in a writable global. */
static double (*POWER)(double, int);
__attribute__((noinline)) double power_rec(double x, int n) { return n == 0 ? 1.0 : x * POWER(x, n - 1); }
static double powers(double x, int n) { return POWER(x, n) + POWER(2.0 * x, n - 1); }

/* The callee picked by comparing floats. */
__attribute__((noinline)) double pick_a(double v) { return v * v * v; }
__attribute__((noinline)) double pick_b(double v) { return exp(-v); }
static double picked(double x, double y) {
  double (*g)(double) = x > y ? pick_a : pick_b;
  return g(x) * g(y);
}

static double X[N] = {0.3, -0.7, 1.1, 0.45, -0.2, 0.9, 1.4}, W[N] = {1.0, 0.5, -0.25, 2.0, 0.75, -1.0, 0.3};
static int WHICH;
static double folds_x(const double *x) { return folds(x, W, N, WHICH); }
static double folds_w(const double *w) { return folds(X, w, N, WHICH); }
static double powers_x(double x) { return powers(x, 5); }
static double Y;
static double picked_x(double x) { return picked(x, Y); }

int main(void) {
  for (WHICH = 0; WHICH < 2; WHICH++) {
    double dx[N] = {0}, dw[N] = {0};
    __enzyme_autodiff_v((void *)folds, enzyme_dup, X, dx, enzyme_dup, W, dw, enzyme_const, N, enzyme_const, WHICH);
    for (int i = 0; i < N; i++) check_close("folds d/dx", dx[i], fd_array(folds_x, X, i), 1e-6);
    for (int i = 0; i < N; i++) check_close("folds d/dw", dw[i], fd_array(folds_w, W, i), 1e-6);
  }

  for (int round = 0; round < 2; round++) {
    if (round == 1) {  /* swap the first two stages and change a coefficient */
      struct stage t = STAGES[0];
      STAGES[0] = STAGES[1];
      STAGES[1] = t;
      STAGES[2].c = 0.5;
    }
    check_close("pipeline d/dx", __enzyme_autodiff((void *)pipeline, 0.4), fd1(pipeline, 0.4), 1e-6);
  }

  POWER = power_rec;
  double x = 1.3;
  check_close("powers d/dx", __enzyme_autodiff((void *)powers, x, enzyme_const, 5), 5 * pow(x, 4) + 2 * 4 * pow(2 * x, 3), 1e-9);
  check_close("powers d/dx (fd)", __enzyme_autodiff((void *)powers, x, enzyme_const, 5), fd1(powers_x, x), 1e-6);

  double pts[3][2] = {{0.8, 0.3}, {0.2, 0.9}, {-0.5, -0.4}};
  for (int k = 0; k < 3; k++) {
    Y = pts[k][1];
    check_close("picked d/dx", __enzyme_autodiff((void *)picked, pts[k][0], enzyme_const, Y), fd1(picked_x, pts[k][0]), 1e-6);
  }
  return check_finish();
}
