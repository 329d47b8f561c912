/* Custom gradients of functions that return a double, in Enzyme's C convention: the augmented
 * function returns {tape, result}, the gradient takes the result's adjoint and the tape last
 * and returns the derivatives of the floating-point arguments (one double, or a struct).
 *  - quantize: a straight-through estimator (round in the primal, identity in the gradient), so
 *    the derivative proves the rule is used (the true derivative of round is zero);
 *  - clipped_mul: two active scalars, the gradient of the product clipped to [-1, 1];
 *  - weighted: a pointer with its shadow, a constant int and an active scalar mixed, the
 *    augmented function keeping what the gradient needs on a heap tape. */
#include "check.h"

typedef struct { void *tape; double result; } TapeAndDouble;
typedef struct { double da, db; } TwoDerivatives;

extern double __enzyme_autodiff(void *, ...);
extern TwoDerivatives __enzyme_autodiff_2(void *, ...);

static int aug_calls, grad_calls;

__attribute__((noinline)) double quantize(double x) { return floor(x * 4 + 0.5) / 4; }

TapeAndDouble augment_quantize(double x) {
  aug_calls++;
  TapeAndDouble r = {0, quantize(x)};
  return r;
}

double gradient_quantize(double x, double differet, void *tape) {
  grad_calls++;
  return differet; /* straight through */
}

void *__enzyme_register_gradient_quantize[] = {(void *)quantize, (void *)augment_quantize, (void *)gradient_quantize};

__attribute__((noinline)) double clipped_mul(double a, double b) { return a * b; }

static double clip(double g) { return g > 1 ? 1 : g < -1 ? -1 : g; }

TapeAndDouble augment_clipped_mul(double a, double b) {
  TapeAndDouble r = {0, a * b};
  return r;
}

TwoDerivatives gradient_clipped_mul(double a, double b, double differet, void *tape) {
  TwoDerivatives d = {clip(differet * b), clip(differet * a)};
  return d;
}

void *__enzyme_register_gradient_clipped_mul[] = {(void *)clipped_mul, (void *)augment_clipped_mul,
                                                  (void *)gradient_clipped_mul};

/* sum_i w[i] * x[i]^2 * s for i < n */
__attribute__((noinline)) double weighted(const double *x, int n, double s) {
  double t = 0;
  for (int i = 0; i < n; i++) t += (i + 1) * x[i] * x[i];
  return t * s;
}

TapeAndDouble augment_weighted(const double *x, double *dx, int n, double s) {
  double *tape = malloc(sizeof(double));
  double t = 0;
  for (int i = 0; i < n; i++) t += (i + 1) * x[i] * x[i];
  *tape = t;
  TapeAndDouble r = {tape, t * s};
  return r;
}

double gradient_weighted(const double *x, double *dx, int n, double s, double differet, void *tape) {
  double t = *(double *)tape;
  free(tape);
  for (int i = 0; i < n; i++) dx[i] += differet * s * 2 * (i + 1) * x[i];
  return differet * t;
}

void *__enzyme_register_gradient_weighted[] = {(void *)weighted, (void *)augment_weighted, (void *)gradient_weighted};

static double f_quantize(double x) { return 3 * quantize(x) + x * quantize(2 * x); }

static double f_clipped(double a, double b) { return clipped_mul(a, b) + clipped_mul(0.5 * a, a); }

static double f_weighted(const double *x, double s) {
  double r = 0;
  for (int k = 1; k <= 2; k++) r += weighted(x, 3, s * k); /* called in a loop */
  return sin(r);
}

int main(void) {
  double x = 0.3;
  double dq = __enzyme_autodiff((void *)f_quantize, x);
  /* straight through: d/dx [3 q(x) + x q(2x)] taken as 3 + q(2x) + 2x */
  check_close("quantize straight-through", dq, 3 + quantize(2 * x) + 2 * x, 1e-12);
  check_close("augment calls", aug_calls, 2, 0);
  check_close("gradient calls", grad_calls, 2, 0);

  /* a = 3, b = 0.2: d/da clipped(a b) = clip(b) = 0.2, d/db = clip(a) = 1; second term
   * clipped(a/2 * a): d/d(a/2) = clip(a) = 1 -> 0.5, d/da = clip(a/2) = 1 */
  TwoDerivatives g = __enzyme_autodiff_2((void *)f_clipped, 3.0, 0.2);
  check_close("clipped d/da", g.da, 0.2 + 0.5 + 1.0, 1e-12);
  check_close("clipped d/db", g.db, 1.0, 1e-12);
  g = __enzyme_autodiff_2((void *)f_clipped, 0.4, 0.7);
  /* unclipped: d/da (a b + a^2/2) = b + a, d/db = a */
  check_close("unclipped d/da", g.da, 0.7 + 0.4, 1e-12);
  check_close("unclipped d/db", g.db, 0.4, 1e-12);

  double xs[3] = {0.2, -0.4, 0.3}, dxs[3] = {0}, s = 0.7;
  double ds = __enzyme_autodiff((void *)f_weighted, enzyme_dup, xs, dxs, s);
  double h = 1e-6;
  check_close("weighted d/ds", ds, (f_weighted(xs, s + h) - f_weighted(xs, s - h)) / (2 * h), 1e-7);
  for (int i = 0; i < 3; i++) {
    double save = xs[i];
    xs[i] = save + h;
    double up = f_weighted(xs, s);
    xs[i] = save - h;
    double down = f_weighted(xs, s);
    xs[i] = save;
    check_close("weighted d/dx", dxs[i], (up - down) / (2 * h), 1e-7);
  }
  return check_finish();
}
