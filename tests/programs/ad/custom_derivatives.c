/* Derivatives the program gives itself, in Enzyme's C conventions:
 *  - __enzyme_register_gradient_*: a "black box" (a routine whose body xenzyme never looks
 *    into: its derivative is the user's) called once and in a loop, with a tape allocated by the
 *    augmented function and freed by the gradient;
 *  - __enzyme_function_like: a series approximation of log1p differentiated as log1p itself;
 *  - __enzyme_inactivefn: a function whose result carries no derivative. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);

static int augment_calls, gradient_calls;

/* y[i] = exp(x[i]) * s, s = sum of x: the custom gradient must reproduce this exactly. */
__attribute__((noinline)) void blackbox(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  for (int i = 0; i < n; i++) y[i] = exp(x[i]) * s;
}

void *augment_blackbox(const double *x, double *dx, double *y, double *dy, int n) {
  augment_calls++;
  double *tape = malloc((n + 1) * sizeof(double)); /* exp(x[i]) and s, before y overwrites x */
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  for (int i = 0; i < n; i++) tape[i] = exp(x[i]);
  tape[n] = s;
  blackbox(x, y, n);
  return tape;
}

void gradient_blackbox(const double *x, double *dx, double *y, double *dy, int n, void *tape) {
  gradient_calls++;
  double *t = tape, s = t[n], ds = 0;
  for (int i = 0; i < n; i++) { /* (x and y may be the same array) */
    double d = dy[i];
    dy[i] = 0;
    dx[i] += d * t[i] * s;
    ds += d * t[i];
  }
  for (int i = 0; i < n; i++) dx[i] += ds;
  free(tape);
}

void *__enzyme_register_gradient_blackbox[] = {(void *)blackbox, (void *)augment_blackbox, (void *)gradient_blackbox};

/* Four terms of the series: not exactly log1p, but differentiated as log1p. */
__attribute__((noinline)) double approx_log1p(double x) { return x - x * x / 2 + x * x * x / 3 - x * x * x * x / 4; }
void *__enzyme_function_like[2] = {(void *)approx_log1p, (void *)"log1p"};

/* A regulariser the program declares constant. */
__attribute__((noinline)) double penalty(double x) { return 0.25 * x * x; }
void *__enzyme_inactivefn[] = {(void *)penalty};

static double objective(const double *x, int n) {
  double y[4], z = 0;
  blackbox(x, y, n);
  for (int i = 0; i < n; i++) z += y[i] * (i + 1) + approx_log1p(0.1 * x[i]) + penalty(x[i]);
  double w[1] = {0.1 * y[0]};
  for (int r = 0; r < 3; r++) {
    blackbox(w, w, 1); /* in place, one element: w = exp(w) * w */
    z += 0.01 * w[0];
  }
  return z;
}

/* The same objective differentiated by hand. */
static void objective_gradient(const double *x, int n, double *g) {
  double s = 0, e[4], y[4];
  for (int i = 0; i < n; i++) s += x[i];
  for (int i = 0; i < n; i++) e[i] = exp(x[i]), y[i] = e[i] * s;
  /* the in-place loop: w = y0 / 10, then w <- exp(w) * w three times; z += 0.01 * w after each */
  double v = 0.1 * y[0], vs[3];
  for (int r = 0; r < 3; r++) vs[r] = v, v = exp(v) * v;
  double acc = 0;
  for (int r = 2; r >= 0; r--) acc = (acc + 0.01) * (exp(vs[r]) * vs[r] + exp(vs[r]));
  double dz_dy0 = 0.1 * acc;
  double dy[4];
  for (int i = 0; i < n; i++) dy[i] = (i + 1) + (i == 0 ? dz_dy0 : 0);
  double ds = 0;
  for (int i = 0; i < n; i++) ds += dy[i] * e[i];
  for (int i = 0; i < n; i++) g[i] = dy[i] * e[i] * s + ds + 0.1 / (1 + 0.1 * x[i]);
}

int main(void) {
  double x[4] = {0.3, -0.2, 0.5, 0.1}, dx[4] = {0}, want[4];
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, 4);
  objective_gradient(x, 4, want);
  for (int i = 0; i < 4; i++) check_close("d objective", dx[i], want[i], 1e-10);
  check_close("augmented calls", augment_calls, 4, 0);
  check_close("gradient calls", gradient_calls, 4, 0);
  return check_finish();
}
