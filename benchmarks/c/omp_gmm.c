/* ADBench GMM, parallel over points: benchmarks/c/gmm.c's objective (the log-likelihood of a
 * Gaussian mixture with a Wishart prior; BENCHMARKS.md has the formula) with its loop over the
 * n points an OpenMP worksharing loop with reduction(+), each thread working in its own
 * temporaries (malloc'd inside the region), and its full gradient with respect to
 * (alpha, mu, icf) by one __enzyme_autodiff call.
 *
 * Input: $XENZYME_BENCH_INPUT, else ADBench's 10,000-point d = 10, K = 25 instance; N is the
 * number of points (the file's first N rows, cycled when N is larger).  At every thread count
 * (bench_omp.h) the program checks the gradient against central differences of the primal along
 * three random directions (1e-5 relative, 2-norm), then times "primal@T" (one evaluation of f)
 * and "gradient@T" (shadows zeroed, then one __enzyme_autodiff call) at each count in this one
 * process.
 */
#include "adbench.h"
#include "bench_omp.h"

extern double __enzyme_autodiff(void *, ...);

#define GMM_DEFAULT_INPUT "gmm/gmm_10k_d10_K25.txt"
#ifdef BENCH_PRIMAL_ONLY
#define CHECK_TOL 1e-9 /* the parallel primal against the serial one: only the order of the sum differs */
#else
#define CHECK_TOL 1e-5 /* central differences */
#endif

static double log_sum_exp(const double *v, int n) {
  double mx = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > mx) mx = v[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(v[i] - mx);
  return log(s) + mx;
}

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

__attribute__((noinline)) double gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                                               const double *icf, const double *x, double gamma, int m) {
  int icf_sz = d * (d + 1) / 2;
  double *qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  for (int c = 0; c < k; c++) {
    double s = 0;
    for (int j = 0; j < d; j++) {
      s += icf[c * icf_sz + j];
      qdiags[c * d + j] = exp(icf[c * icf_sz + j]);
    }
    sum_qs[c] = s;
  }

  double slse = 0;
#pragma omp parallel
  {
    double *xc = malloc(sizeof(double) * d);
    double *qxc = malloc(sizeof(double) * d);
    double *main_term = malloc(sizeof(double) * k);
#pragma omp for reduction(+ : slse)
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
    free(xc);
    free(qxc);
    free(main_term);
  }

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
  return -0.5 * n * d * log(2 * M_PI) + slse - n * log_sum_exp(alphas, k) + prior - k * cst;
}

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
  if (rows < n_file)
    for (long i = rows * d; i < n_file * d; i++) adb_double(&r);
  g->gamma = adb_double(&r);
  g->m = (int)adb_long(&r);
  fclose(r.f);
}

static double gmm_f(const gmm_t *g) {
  return gmm_objective(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x, g->gamma, g->m);
}

static void run_primal(void *p) { bench_sink = gmm_f(p); }

#ifndef BENCH_PRIMAL_ONLY
static void gmm_gradient(gmm_t *g) {
  memset(g->grad, 0, sizeof(double) * (size_t)g->n_params);
  double *dalphas = g->grad, *dmeans = dalphas + g->k, *dicf = dmeans + (long)g->k * g->d;
  __enzyme_autodiff((void *)gmm_objective, enzyme_const, g->d, enzyme_const, g->k, enzyme_const, g->n, enzyme_dup,
                    g->alphas, dalphas, enzyme_dup, g->means, dmeans, enzyme_dup, g->icf, dicf, enzyme_const, g->x,
                    enzyme_const, g->gamma, enzyme_const, g->m);
}

static void run_gradient(void *p) {
  gmm_t *g = p;
  gmm_gradient(g);
  bench_sink = g->grad[0];
}

/* The relative error of g . v against central differences of f along v, over three random
 * directions v (2-norm). */
static double gmm_check(gmm_t *g) {
  long np = g->n_params;
  double *v = adb_alloc((size_t)np, sizeof(double)), *p0 = adb_alloc((size_t)np, sizeof(double));
  memcpy(p0, g->params, sizeof(double) * (size_t)np);
  double num = 0, den = 0, h = 1e-6;
  uint64_t state = 11;
  for (int r = 0; r < 3; r++) {
    adb_direction(&state, v, np);
    double gv = 0;
    for (long j = 0; j < np; j++) gv += g->grad[j] * v[j];
    for (long j = 0; j < np; j++) g->params[j] = p0[j] + h * v[j];
    double fp = gmm_f(g);
    for (long j = 0; j < np; j++) g->params[j] = p0[j] - h * v[j];
    double fm = gmm_f(g);
    memcpy(g->params, p0, sizeof(double) * (size_t)np);
    double fdv = (fp - fm) / (2 * h);
    num += (gv - fdv) * (gv - fdv);
    den += fdv * fdv;
  }
  free(v);
  free(p0);
  return sqrt(num / den);
}
#endif

/* The objective serially: gmm_objective run on one thread. */
static double gmm_serial(const gmm_t *g) {
  omp_set_num_threads(1);
  return gmm_f(g);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 10000);
  bench_thread_counts tc = bench_threads();
  gmm_t g;
  gmm_read(adb_input(GMM_DEFAULT_INPUT), a.n, &g);
  double value = gmm_serial(&g), err = 0;
  char against[128];
  for (int k = 0; k < tc.count; k++) {
    omp_set_num_threads(tc.threads[k]);
#ifdef BENCH_PRIMAL_ONLY
    err = bench_worse(err, fabs(gmm_f(&g) - value) / fabs(value));
    snprintf(against, sizeof against, "the serial primal, %s (no gradient: built primal-only)", bench_threads_text(tc));
#else
    gmm_gradient(&g);
    err = bench_worse(err, gmm_check(&g));
    snprintf(against, sizeof against, "central differences along 3 random directions, %s", bench_threads_text(tc));
#endif
  }
  if (bench_report_check("omp_gmm", a.n, value, err, CHECK_TOL, against)) return 1;
#ifndef BENCH_PRIMAL_ONLY
  if (a.dump && bench_dump(a.dump, g.grad, g.n_params)) return 1;
  if (a.samples > 0) bench_omp_time("omp_gmm", a.n, a.samples, tc, run_primal, run_gradient, &g);
#else
  if (a.samples > 0) bench_omp_time("omp_gmm", a.n, a.samples, tc, run_primal, NULL, &g);
#endif
  return 0;
}
