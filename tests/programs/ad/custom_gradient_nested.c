/* A value-returning custom gradient used where the caller's activity varies:
 *  - inside a function that is itself split into augmented and reverse halves (called in a
 *    loop, not inlined);
 *  - with its second floating-point argument constant at one call and active at another (the
 *    derivative the gradient returns for a constant argument is dropped);
 *  - with its result used only in a comparison (the gradient then gets a zero adjoint).
 * softclip's gradient is deliberately a surrogate (1 inside the limit, 0.1 outside): the
 * expected values below follow the surrogate, not the true derivative. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

typedef struct { void *tape; double result; } TapeAndDouble;
typedef struct { double dx, dlim; } Two;

static int zero_adjoints;

__attribute__((noinline)) double softclip(double x, double lim) { return lim * tanh(x / lim); }

TapeAndDouble augment_softclip(double x, double lim) {
  TapeAndDouble r = {0, softclip(x, lim)};
  return r;
}

Two gradient_softclip(double x, double lim, double differet, void *tape) {
  if (differet == 0) zero_adjoints++;
  Two d = {differet * (fabs(x) < lim ? 1.0 : 0.1), differet * 0.5};
  return d;
}

void *__enzyme_register_gradient_softclip[] = {(void *)softclip, (void *)augment_softclip, (void *)gradient_softclip};

__attribute__((noinline)) void layer(const double *x, double *y, int n, double lim) {
  for (int i = 0; i < n; i++) y[i] = softclip(3 * x[i], 2.0) + softclip(x[i], lim);
}

static double objective(const double *x, int n, double lim) {
  double y[4], z = 0;
  for (int r = 0; r < 2; r++) {
    layer(x, y, n, lim * (r + 1));
    for (int i = 0; i < n; i++) z += y[i] * (i + 1);
  }
  if (softclip(x[0], 1.0) > 0.1) z += x[1]; /* the result only decides a branch */
  return z;
}

/* The surrogate derivatives by hand. */
static void surrogate(const double *x, int n, double lim, double *gx, double *glim) {
  *glim = 0;
  for (int i = 0; i < n; i++) gx[i] = 0;
  for (int r = 0; r < 2; r++) {
    double l = lim * (r + 1);
    for (int i = 0; i < n; i++) {
      double w = i + 1;
      gx[i] += w * 3 * (fabs(3 * x[i]) < 2.0 ? 1.0 : 0.1);
      gx[i] += w * (fabs(x[i]) < l ? 1.0 : 0.1);
      *glim += w * 0.5 * (r + 1);
    }
  }
  if (softclip(x[0], 1.0) > 0.1) gx[1] += 1;
}

int main(void) {
  double x[4] = {0.5, -0.2, 1.4, -0.9}, dx[4] = {0}, gx[4], glim;
  double lim = 1.2;
  double dlim = __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, 4, lim);
  surrogate(x, 4, lim, gx, &glim);
  for (int i = 0; i < 4; i++) check_close("d objective/dx", dx[i], gx[i], 1e-12);
  check_close("d objective/dlim", dlim, glim, 1e-12);
  /* the gradient of the branch-only call ran, with a zero adjoint */
  check_close("zero adjoints", zero_adjoints, 1, 0);
  return check_finish();
}
