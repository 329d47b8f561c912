/* Custom gradients of functions that take their data through pointers, in Enzyme's C
 * convention: augment and gradient take every argument, each pointer followed by its shadow;
 * the gradient adds the derivatives into the shadows of the inputs.  The rules here are
 * deliberately not the true derivatives (scaled by a factor the primal does not have), so that
 * the checks prove the registered functions are the ones used.
 *  - square_: `void square_(const double *src, double *dest)` on local variables (the caller's
 *    stack slots get shadows);
 *  - axpy_: arrays with a length, the output a heap buffer;
 *  - accumulate_: an in-place update of the caller's argument. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static int aug_calls, grad_calls;

__attribute__((noinline)) void square_(const double *src, double *dest) { *dest = *src * *src; }

void *augment_square_(const double *src, const double *d_src, double *dest, double *d_dest) {
  aug_calls++;
  *dest = *src * *src;
  return NULL;
}

void gradient_square_(const double *src, double *d_src, const double *dest, double *d_dest, void *tape) {
  grad_calls++;
  *d_src += 3 * *src * *d_dest; /* 1.5 times the true derivative */
  *d_dest = 0;
}

void *__enzyme_register_gradient_square[] = {(void *)square_, (void *)augment_square_, (void *)gradient_square_};

__attribute__((noinline)) void axpy_(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] += 2 * x[i];
}

void *augment_axpy_(const double *x, const double *dx, double *y, double *dy, int n) {
  for (int i = 0; i < n; i++) y[i] += 2 * x[i];
  return NULL;
}

void gradient_axpy_(const double *x, double *dx, double *y, double *dy, int n, void *tape) {
  grad_calls++;
  for (int i = 0; i < n; i++) dx[i] += 4 * dy[i]; /* twice the true derivative; dy passes through */
}

void *__enzyme_register_gradient_axpy[] = {(void *)axpy_, (void *)augment_axpy_, (void *)gradient_axpy_};

__attribute__((noinline)) void accumulate_(double *acc, const double *v) { *acc += *v; }

void *augment_accumulate_(double *acc, double *d_acc, const double *v, const double *d_v) {
  *acc += *v;
  return NULL;
}

void gradient_accumulate_(double *acc, double *d_acc, const double *v, double *d_v, void *tape) {
  grad_calls++;
  *d_v += -*d_acc; /* the opposite sign of the true derivative */
}

void *__enzyme_register_gradient_accumulate[] = {(void *)accumulate_, (void *)augment_accumulate_,
                                                 (void *)gradient_accumulate_};

static double square(double x) {
  double y;
  square_(&x, &y);
  return y;
}

static double weighted_sum(const double *x, int n) {
  double *y = calloc(n, sizeof(double));
  axpy_(x, y, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * (i + 1);
  free(y);
  return s;
}

static double running(const double *x, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) accumulate_(&acc, &x[i]);
  return acc * x[0];
}

int main(void) {
  double x0 = 1.3;
  check_close("square (1.5 times)", __enzyme_autodiff((void *)square, x0), 1.5 * 2 * x0, 1e-12);
  int ok_counts = aug_calls == 1 && grad_calls == 1;
  check_close("augment and gradient of square_ called once", ok_counts, 1, 0);

  double x[4] = {0.5, -1.25, 2.0, 0.75}, dx[4] = {0};
  __enzyme_autodiff((void *)weighted_sum, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) check_close("weighted_sum (twice)", dx[i], 2 * fd_array_n(weighted_sum, x, 4, i), 1e-6);

  double dr[4] = {0}, total = 0;
  for (int i = 0; i < 4; i++) total += x[i];
  __enzyme_autodiff((void *)running, enzyme_dup, x, dr, enzyme_const, 4);
  /* running = (sum x) * x0: the rule flips the sign of d(sum)/dx_i, x0's own term stays */
  for (int i = 0; i < 4; i++) check_close("running (flipped)", dr[i], -x[0] + (i == 0 ? total : 0), 1e-12);
  return check_finish();
}
