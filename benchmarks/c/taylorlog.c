/* taylorlog: f(x) = sum_{i=1..N} x^i / i, each power through pow(), at x = 0.5.
 *
 * f is the Taylor series of -log(1 - x); its derivative is sum_{i=1..N} x^(i-1)
 * = (1 - x^N) / (1 - x), i.e. 1/(1 - x) minus the tail of the series.  The program checks the
 * xenzyme gradient against that closed form, then times the primal and the gradient in this one
 * process (bench.h), N = 10^7 unless argv says otherwise.  x is read at run time through a
 * volatile, so the compiler cannot specialise either call to it.
 */
#include "bench.h"

extern double __enzyme_autodiff(void *, ...);

static volatile double input_x = 0.5;

double taylorlog(double x, long n) {
  double sum = 0;
  for (long i = 1; i <= n; i++) sum += pow(x, (double)i) / (double)i;
  return sum;
}

typedef struct {
  double x;
  long n;
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  bench_sink = taylorlog(c->x, c->n);
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  bench_sink = __enzyme_autodiff((void *)taylorlog, c->x, enzyme_const, c->n);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 10000000L);
  ctx_t c = {input_x, a.n};

  double d = __enzyme_autodiff((void *)taylorlog, c.x, enzyme_const, c.n);
  double exact = (1.0 - pow(c.x, (double)c.n)) / (1.0 - c.x);
  double err = fabs(d - exact) / fabs(exact);
  if (bench_report_check("taylorlog", c.n, d, err, 1e-9, "(1 - x^N) / (1 - x)")) return 1;
  if (a.dump && bench_dump(a.dump, &d, 1)) return 1;

  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", run_gradient, &c}};
    bench_time("taylorlog", c.n, a.samples, fns, 2);
  }
  return 0;
}
