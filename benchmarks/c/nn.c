/* nn: a one-layer softmax network, 784 -> 10, mean cross-entropy over a batch (default 100).
 *
 *   loss(W, b) = 1/B sum_s [ log sum_k exp(z_sk - m_s) + m_s - z_s,y_s ],
 *   z_s = W x_s + b,  m_s = max_k z_sk,  W 10 x 784,  b 10,  x_s in [0, 1)^784,  y_s in 0..9
 *
 * written the way such code is written for Enzyme: plain loops, the logits in a local array
 * indexed by the label.  The gradient is taken with respect to W and b (the data are constant):
 * dW += 1/B sum_s (softmax(z_s) - e_y_s) x_s^T, db += 1/B sum_s (softmax(z_s) - e_y_s).
 *
 * Before timing, the program checks xenzyme's gradient against the hand-written one below (1e-9
 * relative in the 2-norm) and against central finite differences on a few entries of W and b;
 * then it times the primal, xenzyme's gradient and the hand-written gradient in alternation in
 * this one process (bench.h).  Timed gradient calls accumulate into dW, db (Enzyme's +=
 * convention).  Synthetic data from splitmix64 with a fixed seed.
 *
 *   nn [B [SAMPLES [DUMP]]]      B: batch size (default 100)
 */
#include "bench.h"

#define NIN 784
#define NOUT 10

extern void __enzyme_autodiff(void *, ...);

double nn_loss(const double *W, const double *b, const double *X, const int *labels, int batch) {
  double loss = 0;
  for (int s = 0; s < batch; s++) {
    const double *x = X + (long)s * NIN;
    double z[NOUT];
    for (int k = 0; k < NOUT; k++) {
      double a = b[k];
      for (int j = 0; j < NIN; j++) a += W[k * NIN + j] * x[j];
      z[k] = a;
    }
    double m = z[0];
    for (int k = 1; k < NOUT; k++) m = z[k] > m ? z[k] : m;
    double se = 0;
    for (int k = 0; k < NOUT; k++) se += exp(z[k] - m);
    loss += log(se) + m - z[labels[s]];
  }
  return loss / batch;
}

/* The hand-written gradient: per sample, the logits (summed in the primal's order), the softmax
 * minus the one-hot label, then the rank-1 update of dW (vectorisable over the 784 inputs). */
void nn_grad(const double *restrict W, const double *restrict b, const double *restrict X,
             const int *restrict labels, int batch, double *restrict dW, double *restrict db) {
  double inv = 1.0 / batch;
  for (int s = 0; s < batch; s++) {
    const double *x = X + (long)s * NIN;
    double z[NOUT], g[NOUT];
    for (int k = 0; k < NOUT; k++) {
      double a = b[k];
      for (int j = 0; j < NIN; j++) a += W[k * NIN + j] * x[j];
      z[k] = a;
    }
    double m = z[0];
    for (int k = 1; k < NOUT; k++) m = z[k] > m ? z[k] : m;
    double se = 0;
    for (int k = 0; k < NOUT; k++) se += (g[k] = exp(z[k] - m));
    double scale = inv / se;
    for (int k = 0; k < NOUT; k++) g[k] *= scale;
    g[labels[s]] -= inv;
    for (int k = 0; k < NOUT; k++) {
      db[k] += g[k];
      double *d = dW + k * NIN;
      for (int j = 0; j < NIN; j++) d[j] += g[k] * x[j];
    }
  }
}

static void xenzyme_grad(const double *W, double *dW, const double *b, double *db,
                         const double *X, const int *labels, int batch) {
  __enzyme_autodiff((void *)nn_loss, enzyme_dup, W, dW, enzyme_dup, b, db, enzyme_const, X,
                    enzyme_const, labels, enzyme_const, batch);
}

typedef struct {
  double *W, *dW, *b, *db, *X;
  int *labels;
  int batch;
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  bench_sink = nn_loss(c->W, c->b, c->X, c->labels, c->batch);
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  xenzyme_grad(c->W, c->dW, c->b, c->db, c->X, c->labels, c->batch);
}

static void run_handwritten(void *p) {
  ctx_t *c = p;
  nn_grad(c->W, c->b, c->X, c->labels, c->batch, c->dW, c->db);
}

/* Central difference of the loss in one parameter p (an entry of W or b), relative error
 * against the derivative g. */
static double fd_error(ctx_t *c, double *p, double g) {
  double w = *p, h = 1e-6;
  *p = w + h;
  double fp = nn_loss(c->W, c->b, c->X, c->labels, c->batch);
  *p = w - h;
  double fm = nn_loss(c->W, c->b, c->X, c->labels, c->batch);
  *p = w;
  return fabs((fp - fm) / (2 * h) - g) / fmax(fabs(g), 1e-3);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100L);
  if (a.n > 1000000) {
    fprintf(stderr, "batch too large\n");
    return 2;
  }
  int batch = (int)a.n;
  /* Parameters and their shadows in one block: W (10 x 784) then b (10). */
  const int np = NOUT * NIN + NOUT;
  double *P = malloc(sizeof(double) * np), *dP = calloc(np, sizeof(double));
  double *ref = calloc(np, sizeof(double));
  double *X = malloc(sizeof(double) * (size_t)batch * NIN);
  int *labels = malloc(sizeof(int) * (size_t)batch);
  if (!P || !dP || !ref || !X || !labels) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  uint64_t state = 42;
  for (int k = 0; k < np; k++) P[k] = 0.1 * bench_uniform(&state) - 0.05;
  for (long k = 0; k < (long)batch * NIN; k++) X[k] = bench_uniform(&state);
  for (int s = 0; s < batch; s++) labels[s] = (int)(bench_splitmix64(&state) % NOUT);
  ctx_t c = {P, dP, P + NOUT * NIN, dP + NOUT * NIN, X, labels, batch};

  xenzyme_grad(c.W, c.dW, c.b, c.db, X, labels, batch);
  nn_grad(c.W, c.b, X, labels, batch, ref, ref + NOUT * NIN);
  double num = 0, den = 0;
  for (int k = 0; k < np; k++) {
    num += (dP[k] - ref[k]) * (dP[k] - ref[k]);
    den += ref[k] * ref[k];
  }
  double err = sqrt(num / den);

  /* Central differences on 6 entries of W and on every entry of b. */
  double fd_err = 0;
  for (int t = 0; t < 6 + NOUT; t++) {
    int k = t < 6 ? (int)(bench_splitmix64(&state) % (NOUT * NIN)) : NOUT * NIN + (t - 6);
    double e = fd_error(&c, &P[k], dP[k]);
    if (!(e <= fd_err)) fd_err = e;
  }
  if (bench_report_fd_check("nn", batch, 6 + NOUT, fd_err, 1e-5)) return 1;
  if (bench_report_check("nn", batch, nn_loss(c.W, c.b, X, labels, batch), err, 1e-9,
                         "hand-written C gradient"))
    return 1;
  if (a.dump && bench_dump(a.dump, dP, np)) return 1;

  if (a.samples > 0) {
    memset(dP, 0, sizeof(double) * np);
    bench_fn fns[] = {{"primal", run_primal, &c},
                      {"gradient", run_gradient, &c},
                      {"hand-written C", run_handwritten, &c}};
    bench_time("nn", batch, a.samples, fns, 3);
  }
  free(P);
  free(dP);
  free(ref);
  free(X);
  free(labels);
  return 0;
}
