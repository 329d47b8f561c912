/* ADBench hand tracking, complicated variant: residuals against points of triangles, given by
 * barycentric coordinates u_k (2 per correspondence), which are variables too.  Residual k
 * depends on its own u_k only, so the Jacobian with respect to all of u is block diagonal;
 * ADBench stores it compressed in two columns, before the pose's 26: the Jacobian is 3N x 28,
 * column 0 (1) the derivative with respect to every correspondence's u_k1 (u_k2) at once.
 *
 * By vector forward mode: __enzyme_fwddiff with enzyme_width, direction 0 (1) seeding every
 * u_k's first (second) coordinate with the pose fixed, directions 2..27 the pose's identity
 * columns with u fixed; in 7 chunks of 4 directions, which measured faster than one call of
 * width 28 (benchmarks/run.py's notes); built with -DHT_FULL_WIDTH, the program makes that one
 * call instead.
 *
 *   ht_complicated [N [SAMPLES [DUMP]]]     N correspondences (default 1600: hand6)
 *
 * The objective and the data are ht.h's.  Before timing, every column is checked against central
 * differences of the residuals (1e-6 relative, Frobenius norm); DUMP receives the Jacobian
 * row-major (3N x 28), which the JAX peer checks against its jacfwd to 1e-9.
 */
#include "ht.h"

extern void __enzyme_fwddiff(void *, ...);

#define W (HT_THETA + 2)
#define COLS2(p, o) p[o], p[o + 1]
#define COLS4(p, o) COLS2(p, o), COLS2(p, o + 2)
#define COLS28(p)                                                                                 \
  COLS4(p, 0), COLS4(p, 4), COLS4(p, 8), COLS4(p, 12), COLS4(p, 16), COLS4(p, 20), COLS4(p, 24)

typedef struct {
  ht_data *d;
  double *err;
  double *theta_seeds[W], *u_seeds[W]; /* the shadows of theta and of u in each direction */
  double *cols[W];                     /* the Jacobian's columns */
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  ht_data *d = c->d;
  ht_objective_complicated(d->theta, d->us, &d->model, d->corr, d->points, d->n, c->err);
  bench_sink = c->err[0];
}

#define HT_FWDDIFF(width, THETA_SEEDS, U_SEEDS, COLS)                                             \
  __enzyme_fwddiff((void *)ht_objective_complicated, enzyme_width, width,                         \
                   enzyme_dup, d->theta, THETA_SEEDS,                                             \
                   enzyme_dup, d->us, U_SEEDS,                                                    \
                   enzyme_const, &d->model, enzyme_const, d->corr, enzyme_const, d->points,       \
                   enzyme_const, d->n,                                                            \
                   enzyme_dupnoneed, c->err, COLS)

static void jacobian(ctx_t *c) {
  ht_data *d = c->d;
  double **s = c->theta_seeds, **u = c->u_seeds, **j = c->cols;
#ifdef HT_FULL_WIDTH
  HT_FWDDIFF(28, COLS28(s), COLS28(u), COLS28(j));
#else
  for (int o = 0; o < W; o += 4) HT_FWDDIFF(4, COLS4(s, o), COLS4(u, o), COLS4(j, o));
#endif
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  jacobian(c);
  bench_sink = c->cols[W - 1][0];
}

/* The residuals as a function of the column variables x: x[0] and x[1] added to every u_k's
 * coordinates, x[2..27] the pose. */
static void residuals_at(const ht_data *d, const double *x, double *err) {
  double *us = ht_alloc(2 * (size_t)d->n, sizeof(double));
  for (long k = 0; k < d->n; k++) {
    us[2 * k] = d->us[2 * k] + x[0];
    us[2 * k + 1] = d->us[2 * k + 1] + x[1];
  }
  ht_objective_complicated(x + 2, us, &d->model, d->corr, d->points, d->n, err);
  free(us);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1600);
  ht_data d;
  ht_read("complicated", a.n, &d);
  long m = 3 * (long)d.n, nu = 2 * (long)d.n;
  ctx_t c = {&d, ht_alloc((size_t)m, sizeof(double)), {0}, {0}, {0}};
  for (int k = 0; k < W; k++) {
    c.theta_seeds[k] = ht_alloc(HT_THETA, sizeof(double));
    c.u_seeds[k] = ht_alloc((size_t)nu, sizeof(double));
    if (k < 2)
      for (long i = k; i < nu; i += 2) c.u_seeds[k][i] = 1;
    else
      c.theta_seeds[k][k - 2] = 1;
    c.cols[k] = ht_alloc((size_t)m, sizeof(double));
  }
  jacobian(&c);
  double x0[W] = {0, 0};
  memcpy(x0 + 2, d.theta, sizeof d.theta);
  if (ht_check("ht_complicated", &d, residuals_at, x0, W, c.cols, m)) return 1;
  if (a.dump && ht_dump(a.dump, c.cols, W, m)) return 1;
  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", run_gradient, &c}};
    bench_time("ht_complicated", a.n, a.samples, fns, 2);
  }
  return 0;
}
