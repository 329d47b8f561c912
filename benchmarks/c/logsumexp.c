/* logsumexp: A = max_i x_i; f(x) = log sum_i exp(x_i - A) + A over N = 10^7 doubles.
 *
 * The gradient is the softmax, exp(x_i - A) / sum_j exp(x_j - A) (the path through A cancels).
 * The program checks the xenzyme gradient against the softmax computed here in C, to 1e-9
 * relative in the 2-norm, then times the primal and the gradient in this one process (bench.h).
 * Inputs are uniform in [-4, 4) from splitmix64 with a fixed seed (benchmarks/peers/ generates
 * the same array).  The timed gradient call accumulates into dx (Enzyme's += convention); zeroing
 * dx between calls is left out of the time, as in Enzyme's own benchmarks.
 */
#include "bench.h"

extern void __enzyme_autodiff(void *, ...);

double logsumexp(const double *x, long n) {
  double A = x[0];
  for (long i = 1; i < n; i++) A = x[i] > A ? x[i] : A;
  double s = 0;
  for (long i = 0; i < n; i++) s += exp(x[i] - A);
  return log(s) + A;
}

typedef struct {
  double *x, *dx;
  long n;
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  bench_sink = logsumexp(c->x, c->n);
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  __enzyme_autodiff((void *)logsumexp, enzyme_dup, c->x, c->dx, enzyme_const, c->n);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 10000000L);
  long n = a.n;
  double *x = malloc(sizeof(double) * (size_t)n), *dx = calloc((size_t)n, sizeof(double));
  if (!x || !dx) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  uint64_t state = 42;
  for (long i = 0; i < n; i++) x[i] = 8.0 * bench_uniform(&state) - 4.0;
  ctx_t c = {x, dx, n};

  __enzyme_autodiff((void *)logsumexp, enzyme_dup, x, dx, enzyme_const, n);

  /* Reference: the softmax, computed directly. */
  double A = x[0];
  for (long i = 1; i < n; i++) A = x[i] > A ? x[i] : A;
  double s = 0;
  for (long i = 0; i < n; i++) s += exp(x[i] - A);
  double num = 0, den = 0;
  for (long i = 0; i < n; i++) {
    double g = exp(x[i] - A) / s;
    num += (dx[i] - g) * (dx[i] - g);
    den += g * g;
  }
  double err = sqrt(num / den);
  if (bench_report_check("logsumexp", n, logsumexp(x, n), err, 1e-9, "softmax in C")) return 1;
  if (a.dump && bench_dump(a.dump, dx, n)) return 1;

  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", run_gradient, &c}};
    bench_time("logsumexp", n, a.samples, fns, 2);
  }
  free(x);
  free(dx);
  return 0;
}
