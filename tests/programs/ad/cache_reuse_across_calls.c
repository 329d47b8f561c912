/* A gradient called many times keeps its cache buffers between calls: sizes that grow and
 * shrink from call to call (a buffer kept from a larger call, then one too small to reuse), and
 * four threads calling the same gradient at once with different sizes (each call takes the kept
 * buffer or allocates its own). Every result is checked against the exact derivative. */
#include <pthread.h>

#include "check.h"

extern void __enzyme_autodiff(void *, ...);

/* y_{k+1} = sin(y_k) * x[k] + y_k^2 / 4, a recurrence whose reverse needs every y_k. */
static double chain(const double *x, int n) {
  double y = 0.5;
  for (int k = 0; k < n; k++) y = sin(y) * x[k] + 0.25 * y * y;
  return y;
}

static void chain_out(const double *x, int n, double *out) { *out = chain(x, n); }

/* Exact gradient by a hand-written reverse sweep over stored states. */
static void chain_gradient(const double *x, int n, double *g) {
  double *y = malloc(sizeof(double) * (size_t)(n + 1));
  y[0] = 0.5;
  for (int k = 0; k < n; k++) y[k + 1] = sin(y[k]) * x[k] + 0.25 * y[k] * y[k];
  double a = 1.0;
  for (int k = n - 1; k >= 0; k--) {
    g[k] = a * sin(y[k]);
    a = a * (cos(y[k]) * x[k] + 0.5 * y[k]);
  }
  free(y);
}

static int run(int n, int salt) {
  double *x = malloc(sizeof(double) * (size_t)n), *dx = calloc((size_t)n, sizeof(double));
  double *want = malloc(sizeof(double) * (size_t)n);
  for (int k = 0; k < n; k++) x[k] = 0.3 + 0.5 * sin(0.7 * k + salt);
  double out = 0, dout = 1;
  __enzyme_autodiff((void *)chain_out, enzyme_dup, x, dx, n, enzyme_dup, &out, &dout);
  chain_gradient(x, n, want);
  int bad = 0;
  if (fabs(out - chain(x, n)) > 1e-14) bad++;
  for (int k = 0; k < n; k++)
    if (!(fabs(dx[k] - want[k]) <= 1e-12 * (1 + fabs(want[k])))) bad++;
  free(x), free(dx), free(want);
  return bad;
}

static void *worker(void *arg) {
  long id = (long)arg, bad = 0;
  for (int rep = 0; rep < 40; rep++) bad += run(1 + (int)((rep * 7919 + id * 104729) % 20000), (int)id + rep);
  return (void *)bad;
}

int main(void) {
  /* One thread: growing, shrinking, growing again. */
  static const int sizes[] = {10, 100000, 3, 50000, 1, 200000, 17, 100000};
  int bad = 0;
  for (int i = 0; i < (int)(sizeof sizes / sizeof *sizes); i++) bad += run(sizes[i], i);
  check_close("mismatches, one thread", bad, 0, 0);

  pthread_t t[4];
  for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  long total = 0;
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    total += (long)r;
  }
  check_close("mismatches, four threads", (double)total, 0, 0);
  return check_finish();
}
