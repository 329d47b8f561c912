/* ADBench GMM: the log-likelihood of a Gaussian mixture with a Wishart prior, and its full
 * gradient by one reverse pass (__enzyme_autodiff).
 *
 * Objective (BENCHMARKS.md): d dimensions, K components, n points x_i;
 * parameters alpha (K), mu (K x d), icf (K x d(d+1)/2: per component q_k, the log of the diagonal
 * of the inverse-covariance Cholesky factor, then its strictly lower entries l_k column by
 * column); with Q_k = diag(exp q_k) + L(l_k) and lse(v) = max v + log sum exp(v - max v),
 *
 *   f = -(n d / 2) log 2 pi + sum_i lse_k(alpha_k + sum_j q_kj - |Q_k (x_i - mu_k)|^2 / 2)
 *       - n lse(alpha) + sum_k [gamma^2 / 2 (|exp q_k|^2 + |l_k|^2) - m sum_j q_kj] - K C(d, m, gamma)
 *
 * with C = n_w d (log gamma - log(2) / 2) - log Gamma_d(n_w / 2), n_w = d + m + 1.  The gradient
 * is taken with respect to (alpha, mu, icf): K (d + 1)(d + 2) / 2 values, in that order (the DUMP
 * file's layout).
 *
 * N is the number of points: the instance's first N rows of x, cycled when N is larger.  Before
 * timing, the program checks the gradient against central differences along three random
 * directions (1e-5 relative, 2-norm); XENZYME_BENCH_MODE=fd makes it the finite-difference peer
 * (adbench.h).  "primal" is one evaluation of f, "gradient" one full gradient (shadows zeroed,
 * then one __enzyme_autodiff call).
 */
#include "adbench.h"

extern double __enzyme_autodiff(void *, ...);

#define GMM_DEFAULT_INPUT "gmm/gmm_d10_K25.txt"

/* ---- the objective ------------------------------------------------------------------------ */

static double log_sum_exp(const double *v, int n) {
  double mx = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > mx) mx = v[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(v[i] - mx);
  return log(s) + mx;
}

/* log of the multivariate gamma function Gamma_p(a). */
static double log_gamma_p(double a, int p) {
  double r = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; j++) r += lgamma(a + 0.5 * (1 - j));
  return r;
}

/* out = Q z, Q = diag(qdiag) + strictly lower part l (packed column by column). */
static void q_times(int d, const double *qdiag, const double *l, const double *z, double *out) {
  for (int i = 0; i < d; i++) out[i] = qdiag[i] * z[i];
  int idx = 0;
  for (int j = 0; j < d; j++)
    for (int i = j + 1; i < d; i++) out[i] += l[idx++] * z[j];
}

double gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                     const double *icf, const double *x, double gamma, int m) {
  int icf_sz = d * (d + 1) / 2;
  double *qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  double *xc = malloc(sizeof(double) * d);
  double *qxc = malloc(sizeof(double) * d);
  double *main_term = malloc(sizeof(double) * k);

  for (int c = 0; c < k; c++) {
    double s = 0;
    for (int j = 0; j < d; j++) {
      s += icf[c * icf_sz + j];
      qdiags[c * d + j] = exp(icf[c * icf_sz + j]);
    }
    sum_qs[c] = s;
  }

  double slse = 0;
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < k; c++) {
      for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - means[c * d + j];
      q_times(d, qdiags + c * d, icf + c * icf_sz + d, xc, qxc);
      double sq = 0;
      for (int j = 0; j < d; j++) sq += qxc[j] * qxc[j];
      main_term[c] = alphas[c] + sum_qs[c] - 0.5 * sq;
    }
    slse += log_sum_exp(main_term, k);
  }

  /* Wishart prior */
  double prior = 0;
  for (int c = 0; c < k; c++) {
    double fro = 0;
    for (int j = 0; j < d; j++) fro += qdiags[c * d + j] * qdiags[c * d + j];
    for (int j = d; j < icf_sz; j++) fro += icf[c * icf_sz + j] * icf[c * icf_sz + j];
    prior += 0.5 * gamma * gamma * fro - m * sum_qs[c];
  }
  int nw = d + m + 1;
  double cst = nw * d * (log(gamma) - 0.5 * log(2.0)) - log_gamma_p(0.5 * nw, d);

  free(qdiags);
  free(sum_qs);
  free(xc);
  free(qxc);
  free(main_term);
  return -0.5 * n * d * log(2 * M_PI) + slse - n * log_sum_exp(alphas, k) + prior - k * cst;
}

/* ---- the instance ------------------------------------------------------------------------- */

typedef struct {
  int d, k, n;
  long n_params;
  double *params; /* alphas | means | icf, contiguous */
  double *alphas, *means, *icf, *x;
  double gamma;
  int m;
  double *grad;
} gmm_t;

static void gmm_read(const char *path, long n, gmm_t *g) {
  adb_reader r = adb_open(path);
  g->d = (int)adb_long(&r);
  g->k = (int)adb_long(&r);
  long n_file = adb_long(&r);
  g->n = (int)n;
  int d = g->d, k = g->k, icf_sz = d * (d + 1) / 2;
  g->n_params = (long)k * (1 + d + icf_sz);
  g->params = adb_alloc((size_t)g->n_params, sizeof(double));
  g->grad = adb_alloc((size_t)g->n_params, sizeof(double));
  g->alphas = g->params;
  g->means = g->alphas + k;
  g->icf = g->means + (long)k * d;
  for (long i = 0; i < g->n_params; i++) g->params[i] = adb_double(&r);
  g->x = adb_alloc((size_t)n * d, sizeof(double));
  long rows = n < n_file ? n : n_file;
  for (long i = 0; i < rows * d; i++) g->x[i] = adb_double(&r);
  for (long i = rows; i < n; i++) memcpy(g->x + i * d, g->x + (i % rows) * d, sizeof(double) * d);
  if (rows < n_file) /* skip to the Wishart parameters */
    for (long i = rows * d; i < n_file * d; i++) adb_double(&r);
  g->gamma = adb_double(&r);
  g->m = (int)adb_long(&r);
  fclose(r.f);
}

static double gmm_f(const gmm_t *g) {
  return gmm_objective(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x, g->gamma, g->m);
}

static void gmm_gradient(gmm_t *g) {
  memset(g->grad, 0, sizeof(double) * (size_t)g->n_params);
  double *dalphas = g->grad, *dmeans = dalphas + g->k, *dicf = dmeans + (long)g->k * g->d;
  __enzyme_autodiff((void *)gmm_objective, enzyme_const, g->d, enzyme_const, g->k, enzyme_const,
                    g->n, enzyme_dup, g->alphas, dalphas, enzyme_dup, g->means, dmeans, enzyme_dup,
                    g->icf, dicf, enzyme_const, g->x, enzyme_const, g->gamma, enzyme_const, g->m);
}

/* Central differences in every coordinate. */
static void gmm_fd_gradient(gmm_t *g, double *out) {
  for (long j = 0; j < g->n_params; j++) {
    double p = g->params[j], h = adb_step(p);
    g->params[j] = p + h;
    double fp = gmm_f(g);
    g->params[j] = p - h;
    double fm = gmm_f(g);
    g->params[j] = p;
    out[j] = (fp - fm) / (2 * h);
  }
}

typedef struct {
  gmm_t *g;
  double *fd;
} ctx_t;

static void run_primal(void *p) { bench_sink = gmm_f(((ctx_t *)p)->g); }

static void run_gradient(void *p) {
  ctx_t *c = p;
  gmm_gradient(c->g);
  bench_sink = c->g->grad[0];
}

static void run_fd(void *p) {
  ctx_t *c = p;
  gmm_fd_gradient(c->g, c->fd);
  bench_sink = c->fd[0];
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1000);
  gmm_t g;
  gmm_read(adb_input(GMM_DEFAULT_INPUT), a.n, &g);
  long np = g.n_params;
  ctx_t c = {&g, adb_alloc((size_t)np, sizeof(double))};
  gmm_gradient(&g);
  double value = gmm_f(&g);
  int fd = adb_fd_mode();

  if (fd) {
    gmm_fd_gradient(&g, c.fd);
    if (bench_report_check("gmm", a.n, value, adb_rel_err(g.grad, c.fd, np), 1e-5,
                           "central differences in every coordinate"))
      return 1;
  } else {
    /* Directional derivatives: g . v against (f(p + h v) - f(p - h v)) / 2h. */
    double *v = adb_alloc((size_t)np, sizeof(double)), *p0 = adb_alloc((size_t)np, sizeof(double));
    memcpy(p0, g.params, sizeof(double) * (size_t)np);
    double num = 0, den = 0, h = 1e-6;
    uint64_t state = 11;
    for (int r = 0; r < 3; r++) {
      adb_direction(&state, v, np);
      double gv = 0;
      for (long j = 0; j < np; j++) gv += g.grad[j] * v[j];
      for (long j = 0; j < np; j++) g.params[j] = p0[j] + h * v[j];
      double fp = gmm_f(&g);
      for (long j = 0; j < np; j++) g.params[j] = p0[j] - h * v[j];
      double fm = gmm_f(&g);
      memcpy(g.params, p0, sizeof(double) * (size_t)np);
      double fdv = (fp - fm) / (2 * h);
      num += (gv - fdv) * (gv - fdv);
      den += fdv * fdv;
    }
    if (bench_report_check("gmm", a.n, value, sqrt(num / den), 1e-5,
                           "central differences along 3 random directions"))
      return 1;
    if (a.dump && bench_dump(a.dump, g.grad, np)) return 1;
  }

  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", fd ? run_fd : run_gradient, &c}};
    bench_time("gmm", a.n, a.samples, fns, 2);
  }
  return 0;
}
