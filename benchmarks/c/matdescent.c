/* matdescent: f(W) = ||W v||^2 with W an N x N matrix (N = M = 2000), as in Enzyme's first talk.
 *
 * The objective computes W v into a temporary it mallocs and frees itself, the way such code is
 * written; the gradient, dW += 2 (W v) v^T, is taken with respect to W (v is constant).
 *
 * Before timing, the program checks xenzyme's gradient against the hand-written one below (1e-9
 * relative in the 2-norm) and against central finite differences on a few entries of W, then
 * runs gradient-descent steps on W with both gradients and checks that the objective decreases
 * as the closed form says: after a step of size lr, W v is scaled by (1 - 2 lr |v|^2).
 * It then times the primal, xenzyme's gradient and the hand-written gradient in alternation in
 * this one process (bench.h).  Each timed gradient call accumulates into dW (Enzyme's +=
 * convention); zeroing dW between calls is left out of the time.
 *
 *   matdescent [N [SAMPLES [DUMP]]]      N: W is N x N (default 2000)
 */
#include "bench.h"

extern void __enzyme_autodiff(void *, ...);

double matdescent(const double *W, const double *v, int n, int m) {
  double *Wv = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) {
    Wv[i] = 0;
    for (int j = 0; j < m; j++) Wv[i] += W[(long)i * m + j] * v[j];
  }
  double res = 0;
  for (int i = 0; i < n; i++) res += Wv[i] * Wv[i];
  free(Wv);
  return res;
}

/* The hand-written gradient, dW += 2 (W v) v^T: one pass over the rows, each row's dot product
 * (summed in the primal's order, so that the results agree to rounding) followed at once by the
 * rank-1 update of the same row of dW.  No temporary: row i needs only (W v)_i. */
void matdescent_grad(const double *restrict W, const double *restrict v, double *restrict dW,
                     int n, int m) {
  for (int i = 0; i < n; i++) {
    const double *w = W + (long)i * m;
    double s = 0;
    for (int j = 0; j < m; j++) s += w[j] * v[j];
    double g = 2 * s;
    double *d = dW + (long)i * m;
    for (int j = 0; j < m; j++) d[j] += g * v[j];
  }
}

static void xenzyme_grad(const double *W, double *dW, const double *v, int n) {
  __enzyme_autodiff((void *)matdescent, enzyme_dup, W, dW, enzyme_const, v, enzyme_const, n,
                    enzyme_const, n);
}

typedef struct {
  double *W, *dW, *v;
  int n;
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  bench_sink = matdescent(c->W, c->v, c->n, c->n);
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  xenzyme_grad(c->W, c->dW, c->v, c->n);
}

static void run_handwritten(void *p) {
  ctx_t *c = p;
  matdescent_grad(c->W, c->v, c->dW, c->n, c->n);
}

/* `steps` gradient-descent steps W -= lr dW from W0 with the given gradient; returns the final
 * objective and its relative deviation from the closed form f0 (1 - 2 lr |v|^2)^(2 steps). */
static double descend(int use_xenzyme, const double *W0, double *W, double *dW, const double *v,
                      int n, int steps, double lr, double vv, double *dev) {
  size_t nn = (size_t)n * (size_t)n;
  memcpy(W, W0, sizeof(double) * nn);
  double f0 = matdescent(W, v, n, n);
  for (int s = 0; s < steps; s++) {
    memset(dW, 0, sizeof(double) * nn);
    if (use_xenzyme)
      xenzyme_grad(W, dW, v, n);
    else
      matdescent_grad(W, v, dW, n, n);
    for (size_t k = 0; k < nn; k++) W[k] -= lr * dW[k];
  }
  double f = matdescent(W, v, n, n);
  double expect = f0 * pow(1 - 2 * lr * vv, 2.0 * steps);
  *dev = fabs(f - expect) / expect;
  return f;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 2000L);
  if (a.n > 46000) {
    fprintf(stderr, "N too large\n");
    return 2;
  }
  int n = (int)a.n;
  size_t nn = (size_t)n * (size_t)n;
  double *W = malloc(sizeof(double) * nn), *W0 = malloc(sizeof(double) * nn);
  double *dW = calloc(nn, sizeof(double)), *ref = calloc(nn, sizeof(double));
  double *v = malloc(sizeof(double) * (size_t)n);
  if (!W || !W0 || !dW || !ref || !v) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  uint64_t state = 42;
  double scale = 1.0 / sqrt((double)n);
  for (size_t k = 0; k < nn; k++) W0[k] = scale * (2.0 * bench_uniform(&state) - 1.0);
  double vv = 0;
  for (int j = 0; j < n; j++) {
    v[j] = 2.0 * bench_uniform(&state) - 1.0;
    vv += v[j] * v[j];
  }
  memcpy(W, W0, sizeof(double) * nn);
  ctx_t c = {W, dW, v, n};

  /* xenzyme against the hand-written gradient. */
  xenzyme_grad(W, dW, v, n);
  matdescent_grad(W, v, ref, n, n);
  double num = 0, den = 0;
  for (size_t k = 0; k < nn; k++) {
    num += (dW[k] - ref[k]) * (dW[k] - ref[k]);
    den += ref[k] * ref[k];
  }
  double err = sqrt(num / den);

  /* xenzyme against central differences on a few entries of W (f is quadratic in each entry,
   * so the difference quotient is exact up to rounding). */
  double fd_err = 0;
  for (int t = 0; t < 8; t++) {
    size_t k = (size_t)(bench_splitmix64(&state) % nn);
    double w = W[k], h = 1e-4;
    W[k] = w + h;
    double fp = matdescent(W, v, n, n);
    W[k] = w - h;
    double fm = matdescent(W, v, n, n);
    W[k] = w;
    double fd = (fp - fm) / (2 * h);
    double e = fabs(fd - dW[k]) / fmax(fabs(dW[k]), 1e-3);
    if (!(e <= fd_err)) fd_err = e;
  }
  if (bench_report_fd_check("matdescent", n, 8, fd_err, 1e-5)) return 1;
  if (bench_report_check("matdescent", n, matdescent(W, v, n, n), err, 1e-9,
                         "hand-written C gradient"))
    return 1;
  if (a.dump && bench_dump(a.dump, dW, (long)nn)) return 1;

  /* Gradient descent on W: 100 steps when timing (BENCHMARKS.md), 10 for a check-only run.
   * lr = 0.01 / |v|^2 shrinks W v by 2 % a step. */
  int steps = a.samples > 0 ? 100 : 10;
  double lr = 0.01 / vv, f0 = matdescent(W0, v, n, n), dev_x, dev_h;
  double t0 = bench_now();
  double fx = descend(1, W0, W, dW, v, n, steps, lr, vv, &dev_x);
  double t1 = bench_now();
  double fh = descend(0, W0, W, dW, v, n, steps, lr, vv, &dev_h);
  double t2 = bench_now();
  int ok = fx < f0 && fh < f0 && dev_x <= 1e-9 && dev_h <= 1e-9;
  printf("{\"bench\": \"matdescent\", \"kind\": \"descent\", \"n\": %d, \"steps\": %d, "
         "\"lr\": %.6g, \"f0\": %.17g, \"f_xenzyme\": %.17g, \"f_handwritten\": %.17g, "
         "\"rel_dev_from_closed_form\": %.3g, \"s_xenzyme\": %.6g, \"s_handwritten\": %.6g, "
         "\"ok\": %s}\n",
         n, steps, lr, f0, fx, fh, fmax(dev_x, dev_h), t1 - t0, t2 - t1, ok ? "true" : "false");
  fflush(stdout);
  if (!ok) {
    fprintf(stderr, "matdescent: gradient descent FAILED: f0 %g, xenzyme %g, hand-written %g\n",
            f0, fx, fh);
    return 1;
  }

  if (a.samples > 0) {
    memcpy(W, W0, sizeof(double) * nn);
    memset(dW, 0, sizeof(double) * nn);
    bench_fn fns[] = {{"primal", run_primal, &c},
                      {"gradient", run_gradient, &c},
                      {"hand-written C", run_handwritten, &c}};
    bench_time("matdescent", n, a.samples, fns, 3);
  }
  free(W);
  free(W0);
  free(dW);
  free(ref);
  free(v);
  return 0;
}
