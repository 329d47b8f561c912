/* Parallel logsumexp: A = max_i x_i; f(x) = log sum_i exp(x_i - A) + A over N = 10^7 doubles, in
 * one OpenMP region: an `omp for` with reduction(max : A), then an `omp for` with
 * reduction(+ : s).
 *
 * The gradient is the softmax, exp(x_i - A) / sum_j exp(x_j - A) (the path through A cancels).
 * At every thread count (bench_omp.h) the program checks xenzyme's gradient against the softmax
 * computed here serially, to 1e-9 relative in the 2-norm, then times the primal and the gradient
 * at each count in this one process.  Inputs are benchmarks/c/logsumexp.c's: uniform in [-4, 4)
 * from splitmix64 with a fixed seed.  The timed gradient accumulates into dx (Enzyme's +=
 * convention); zeroing dx between calls is left out of the time.
 */
#include "bench_omp.h"

extern void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double logsumexp(const double *x, long n) {
  double A = -INFINITY, s = 0;
#pragma omp parallel
  {
#pragma omp for reduction(max : A)
    for (long i = 0; i < n; i++) A = x[i] > A ? x[i] : A;
#pragma omp for reduction(+ : s)
    for (long i = 0; i < n; i++) s += exp(x[i] - A);
  }
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

#ifndef BENCH_PRIMAL_ONLY
static void run_gradient(void *p) {
  ctx_t *c = p;
  __enzyme_autodiff((void *)logsumexp, enzyme_dup, c->x, c->dx, enzyme_const, c->n);
}
#endif

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 10000000L);
  bench_thread_counts tc = bench_threads();
  long n = a.n;
  double *x = malloc(sizeof(double) * (size_t)n), *dx = calloc((size_t)n, sizeof(double));
  if (!x || !dx) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  uint64_t state = 42;
  for (long i = 0; i < n; i++) x[i] = 8.0 * bench_uniform(&state) - 4.0;
  ctx_t c = {x, dx, n};

  /* The reference, serially: the value and the softmax. */
  double A = x[0];
  for (long i = 1; i < n; i++) A = x[i] > A ? x[i] : A;
  double s = 0;
  for (long i = 0; i < n; i++) s += exp(x[i] - A);
  double value = log(s) + A, err = 0;
  char against[128];
  for (int k = 0; k < tc.count; k++) {
    omp_set_num_threads(tc.threads[k]);
#ifdef BENCH_PRIMAL_ONLY
    double e = fabs(logsumexp(x, n) - value) / fabs(value);
    snprintf(against, sizeof against, "the serial primal, %s (no gradient: built primal-only)", bench_threads_text(tc));
#else
    memset(dx, 0, sizeof(double) * (size_t)n);
    __enzyme_autodiff((void *)logsumexp, enzyme_dup, x, dx, enzyme_const, n);
    double num = 0, den = 0;
    for (long i = 0; i < n; i++) {
      double g = exp(x[i] - A) / s;
      num += (dx[i] - g) * (dx[i] - g);
      den += g * g;
    }
    double e = sqrt(num / den);
    snprintf(against, sizeof against, "softmax in C, %s", bench_threads_text(tc));
#endif
    err = bench_worse(err, e);
  }
  if (bench_report_check("omp_logsumexp", n, value, err, 1e-9, against)) return 1;
#ifndef BENCH_PRIMAL_ONLY
  if (a.dump && bench_dump(a.dump, dx, n)) return 1;
#endif

  if (a.samples > 0) {
#ifdef BENCH_PRIMAL_ONLY
    bench_omp_time("omp_logsumexp", n, a.samples, tc, run_primal, NULL, &c);
#else
    bench_omp_time("omp_logsumexp", n, a.samples, tc, run_primal, run_gradient, &c);
#endif
  }
  free(x);
  free(dx);
  return 0;
}
