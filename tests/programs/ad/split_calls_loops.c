/* Split mode on a function with loops and calls to other differentiated functions: its tape
 * holds the caches of the loop (values and loop counts) and the tapes of the calls it makes
 * (each callee's own augmented/reverse pair).  The caller frees and reuses the memory of the
 * inputs between the halves.  Activities mixed: enzyme_const array, enzyme_out scalar,
 * enzyme_dup arrays, an unmarked (constant) integer. */
#include "check.h"

typedef struct {
  void *tape;
  double ret;
} aug_t;
extern aug_t __enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
enum { N = 5 };

__attribute__((noinline)) static double smooth(double v, double a) { return log(1.0 + exp(a * v)) / a; }

__attribute__((noinline)) static void scale_into(const double *in, double *out, int n, double s) {
  for (int i = 0; i < n; i++) out[i] = in[i] * s + smooth(in[i], 2.0);
}

/* coef: constant; a: active scalar; x: dup input; work: dup scratch written then read */
__attribute__((noinline)) static double loss(const double *coef, double a, const double *x, double *work, int n) {
  scale_into(x, work, n, a);
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = work[i] - coef[i];
    for (int j = 0; j <= i; j++) r *= 1.0 + 0.1 * smooth(work[j], a);
    s += r * r;
  }
  return s;
}

static double COEF[N] = {0.1, -0.2, 0.4, 0.0, 0.3};
static double X[N] = {0.5, -0.4, 1.0, 0.2, -0.9};
static double A = 0.8;
static double loss_a(double a) {
  double w[N];
  return loss(COEF, a, X, w, N);
}
static double loss_x(const double *x) {
  double w[N];
  return loss(COEF, A, x, w, N);
}

int main(void) {
  double *x = malloc(N * sizeof(double)), *dx = calloc(N, sizeof(double));
  double *work = malloc(N * sizeof(double)), *dwork = calloc(N, sizeof(double));
  double *coef = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) x[i] = X[i], coef[i] = COEF[i];
  aug_t r = __enzyme_augmentfwd((void *)loss, enzyme_const, coef, enzyme_out, A, enzyme_dup, x, dx, enzyme_dup, work,
                                dwork, N);
  check_close("loss primal from the augmented call", r.ret, loss_a(A), 1e-13);
  /* the caller scribbles over the inputs and the scratch between the halves */
  for (int i = 0; i < N; i++) x[i] = -7.0, work[i] = 1e3, coef[i] = 42.0;
  double da = __enzyme_reverse((void *)loss, enzyme_const, coef, enzyme_out, A, enzyme_dup, x, dx, enzyme_dup, work,
                               dwork, N, 0.5, r.tape);
  check_close("dloss/da (seed 0.5)", da, 0.5 * fd1(loss_a, A), 1e-6);
  for (int i = 0; i < N; i++) {
    char what[32];
    snprintf(what, sizeof what, "dloss/dx[%d] (seed 0.5)", i);
    check_close(what, dx[i], 0.5 * fd_array(loss_x, X, i), 1e-6);
  }
  check_zero("dwork after reverse", dwork, N);
  free(x), free(dx), free(work), free(dwork), free(coef);
  return check_finish();
}
