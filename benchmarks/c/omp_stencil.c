/* A 2-D stencil in time: an explicit step of a reaction-diffusion equation,
 *   v = u + r (u_N + u_S + u_W + u_E - 4 u) - 0.05 u^3   (interior; the boundary is fixed),
 * on a square grid of about N cells (side floor(sqrt(N)); 256 x 256 by default), 50 steps (one
 * OpenMP `parallel for` over the rows per step, swapping two buffers), then a weighted energy
 * sum_k w_k u_k^2 (a reduction).  The gradient is taken with respect to the initial grid
 * (overwritten in place by the steps) and the coefficient r (enzyme_out): the reverse sweep
 * needs every step's grid.
 *
 * At every thread count (bench_omp.h) the program checks the gradient against central
 * differences of the primal along three random directions of (u, r) (1e-5 relative, 2-norm),
 * then times "primal@T" and "gradient@T" at each count in this one process.  Both timed calls
 * first copy the initial grid into the working buffer (the steps overwrite it; one grid, small
 * beside 50 steps); the gradient call also zeroes the two shadow grids.
 */
#include "bench_omp.h"

extern double __enzyme_autodiff(void *, ...);

#define STEPS 50
#ifdef BENCH_PRIMAL_ONLY
#define CHECK_TOL 1e-9 /* the parallel primal against the serial one: only the order of the sum differs */
#else
#define CHECK_TOL 1e-5 /* central differences */
#endif

__attribute__((noinline)) double stencil(int nx, int ny, int steps, double r, double *u, double *v, const double *w) {
  double *a = u, *b = v;
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 0; i < nx; i++)
      for (int j = 0; j < ny; j++) {
        int k = i * ny + j;
        if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1)
          b[k] = a[k];
        else
          b[k] = a[k] + r * (a[k - ny] + a[k + ny] + a[k - 1] + a[k + 1] - 4 * a[k]) - 0.05 * a[k] * a[k] * a[k];
      }
    double *s = a;
    a = b;
    b = s;
  }
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int k = 0; k < nx * ny; k++) e += w[k] * a[k] * a[k];
  return e;
}

typedef struct {
  int n;
  double r, dr;
  double *u0, *u, *v, *w, *du, *dv;
} ctx_t;

static double primal(ctx_t *c, const double *u0, double r) {
  memcpy(c->u, u0, sizeof(double) * (size_t)c->n * c->n);
  return stencil(c->n, c->n, STEPS, r, c->u, c->v, c->w);
}

static void run_primal(void *p) {
  ctx_t *c = p;
  bench_sink = primal(c, c->u0, c->r);
}

#ifndef BENCH_PRIMAL_ONLY
static void gradient(ctx_t *c) {
  size_t bytes = sizeof(double) * (size_t)c->n * c->n;
  memcpy(c->u, c->u0, bytes);
  memset(c->du, 0, bytes);
  memset(c->dv, 0, bytes);
  c->dr = __enzyme_autodiff((void *)stencil, enzyme_const, c->n, enzyme_const, c->n, enzyme_const, STEPS, enzyme_out,
                            c->r, enzyme_dup, c->u, c->du, enzyme_dup, c->v, c->dv, enzyme_const, c->w);
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  gradient(c);
  bench_sink = c->dr;
}

/* The relative error of (du, dr) . (vu, vr) against central differences along (vu, vr), over
 * three random directions (2-norm). */
static double check(ctx_t *c) {
  long cells = (long)c->n * c->n;
  double *vu = malloc(sizeof(double) * (size_t)cells), *up = malloc(sizeof(double) * (size_t)cells);
  double num = 0, den = 0, h = 1e-6;
  uint64_t state = 7;
  for (int k = 0; k < 3; k++) {
    for (long i = 0; i < cells; i++) vu[i] = 2 * bench_uniform(&state) - 1;
    double vr = 2 * bench_uniform(&state) - 1, gv = c->dr * vr;
    for (long i = 0; i < cells; i++) gv += c->du[i] * vu[i];
    for (long i = 0; i < cells; i++) up[i] = c->u0[i] + h * vu[i];
    double fp = primal(c, up, c->r + h * vr);
    for (long i = 0; i < cells; i++) up[i] = c->u0[i] - h * vu[i];
    double fm = primal(c, up, c->r - h * vr), fdv = (fp - fm) / (2 * h);
    num += (gv - fdv) * (gv - fdv);
    den += fdv * fdv;
  }
  free(vu);
  free(up);
  return sqrt(num / den);
}
#endif

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 256 * 256);
  bench_thread_counts tc = bench_threads();
  int n = (int)sqrt((double)a.n); /* the grid's side */
  while ((long)(n + 1) * (n + 1) <= a.n) n++;
  if (n < 3 || n > 8192) {
    fprintf(stderr, "N (the grid's cells) must be in 9..8192^2\n");
    return 2;
  }
  size_t cells = (size_t)n * n;
  ctx_t c = {n, 0.2, 0, malloc(sizeof(double) * cells), malloc(sizeof(double) * cells), malloc(sizeof(double) * cells),
             malloc(sizeof(double) * cells), calloc(cells, sizeof(double)), calloc(cells, sizeof(double))};
  if (!c.u0 || !c.u || !c.v || !c.w || !c.du || !c.dv) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  uint64_t state = 42;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      c.u0[i * n + j] = sin(6.0 * i / n) * cos(4.0 * j / n) + 0.5 * bench_uniform(&state);
      c.w[i * n + j] = 1.0 + bench_uniform(&state);
    }
  omp_set_num_threads(1);
  double value = primal(&c, c.u0, c.r), err = 0;
  char against[128];
  for (int k = 0; k < tc.count; k++) {
    omp_set_num_threads(tc.threads[k]);
#ifdef BENCH_PRIMAL_ONLY
    err = bench_worse(err, fabs(primal(&c, c.u0, c.r) - value) / fabs(value));
    snprintf(against, sizeof against, "the serial primal, %s (no gradient: built primal-only)", bench_threads_text(tc));
#else
    gradient(&c);
    err = bench_worse(err, check(&c));
    snprintf(against, sizeof against, "central differences along 3 random directions, %s", bench_threads_text(tc));
#endif
  }
  if (bench_report_check("omp_stencil", a.n, value, err, CHECK_TOL, against)) return 1;
#ifndef BENCH_PRIMAL_ONLY
  if (a.dump && bench_dump(a.dump, c.du, (long)cells)) return 1;
  if (a.samples > 0) bench_omp_time("omp_stencil", a.n, a.samples, tc, run_primal, run_gradient, &c);
#else
  if (a.samples > 0) bench_omp_time("omp_stencil", a.n, a.samples, tc, run_primal, NULL, &c);
#endif
  return 0;
}
