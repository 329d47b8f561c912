/* ADBench hand tracking, simple variant: the 3N x 26 Jacobian of the residuals with respect to
 * the pose, by vector forward mode: __enzyme_fwddiff with enzyme_width, the identity's columns
 * as the pose's shadows, so that the residuals' shadows receive the Jacobian's columns.  In
 * chunks of 4 directions, 6 calls of width 4 and one of width 2, which measured faster than one
 * call of width 26 (benchmarks/run.py's notes); built with -DHT_FULL_WIDTH, the program makes
 * that one call instead.
 *
 *   ht_simple [N [SAMPLES [DUMP]]]     N correspondences (default 1600: hand6)
 *
 * The objective and the data are ht.h's.  Before timing, every column is checked against central
 * differences of the residuals (1e-6 relative, Frobenius norm); DUMP receives the Jacobian
 * row-major (3N x 26), which the JAX peer (benchmarks/peers/jax_ht.py) checks against its
 * jacfwd to 1e-9.  "primal" is one evaluation of the residuals, "gradient" one Jacobian.
 */
#include "ht.h"

extern void __enzyme_fwddiff(void *, ...);

#define W HT_THETA
#define COLS2(p, o) p[o], p[o + 1]
#define COLS4(p, o) COLS2(p, o), COLS2(p, o + 2)
#define COLS26(p)                                                                                 \
  COLS4(p, 0), COLS4(p, 4), COLS4(p, 8), COLS4(p, 12), COLS4(p, 16), COLS4(p, 20), COLS2(p, 24)

typedef struct {
  ht_data *d;
  double *err;
  double *seeds[W]; /* seeds[k] = e_k, the pose's shadow in direction k */
  double *cols[W];  /* cols[k] = J e_k */
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  ht_data *d = c->d;
  ht_objective_simple(d->theta, &d->model, d->corr, d->points, d->n, c->err);
  bench_sink = c->err[0];
}

/* The columns o .. o + width - 1, for width 4 or 2, or all 26. */
#define HT_FWDDIFF(width, SEEDS, COLS)                                                            \
  __enzyme_fwddiff((void *)ht_objective_simple, enzyme_width, width,                              \
                   enzyme_dup, d->theta, SEEDS,                                                   \
                   enzyme_const, &d->model, enzyme_const, d->corr, enzyme_const, d->points,       \
                   enzyme_const, d->n,                                                            \
                   enzyme_dupnoneed, c->err, COLS)

static void jacobian(ctx_t *c) {
  ht_data *d = c->d;
  double **s = c->seeds, **j = c->cols;
#ifdef HT_FULL_WIDTH
  HT_FWDDIFF(26, COLS26(s), COLS26(j));
#else
  for (int o = 0; o < 24; o += 4) HT_FWDDIFF(4, COLS4(s, o), COLS4(j, o));
  HT_FWDDIFF(2, COLS2(s, 24), COLS2(j, 24));
#endif
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  jacobian(c);
  bench_sink = c->cols[W - 1][0];
}

/* The residuals as a function of the pose: the Jacobian's columns, for the check. */
static void residuals_at(const ht_data *d, const double *theta, double *err) {
  ht_objective_simple(theta, &d->model, d->corr, d->points, d->n, err);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1600);
  ht_data d;
  ht_read("simple", a.n, &d);
  long m = 3 * (long)d.n;
  ctx_t c = {&d, ht_alloc((size_t)m, sizeof(double)), {0}, {0}};
  for (int k = 0; k < W; k++) {
    c.seeds[k] = ht_alloc(HT_THETA, sizeof(double));
    c.seeds[k][k] = 1;
    c.cols[k] = ht_alloc((size_t)m, sizeof(double));
  }
  jacobian(&c);
  if (ht_check("ht_simple", &d, residuals_at, d.theta, W, c.cols, m)) return 1;
  if (a.dump && ht_dump(a.dump, c.cols, W, m)) return 1;
  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", run_gradient, &c}};
    bench_time("ht_simple", a.n, a.samples, fns, 2);
  }
  return 0;
}
