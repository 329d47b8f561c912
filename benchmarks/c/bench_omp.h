/* Thread counts for the OpenMP benchmark programs (omp_*.c), on top of bench.h's protocol.
 *
 * A program runs its primal and its gradient at each thread count of $XENZYME_BENCH_THREADS
 * ("1,2" unless set; at most 8 counts), all in one process: the gradient is checked at every
 * count before anything is timed, then bench_omp_time() times "primal@T" and "gradient@T" for
 * each count T in one bench_time() call, so that the samples of all of them alternate and the
 * machine's drift affects them alike.  The thread count is set by omp_set_num_threads() at the
 * start of each timed call (it only sets a variable of the runtime).
 *
 * Built with -DBENCH_PRIMAL_ONLY a program has no derivative request: it checks its parallel
 * primal against a serial evaluation of the same formula and times "primal@T" only (run.py
 * builds it this way when the full program cannot be built, to report the primal's scaling).
 */
#ifndef XENZYME_BENCH_OMP_H
#define XENZYME_BENCH_OMP_H

#include <omp.h>

#include "bench.h"

#define BENCH_MAX_THREAD_COUNTS 4

typedef struct {
  int count, threads[BENCH_MAX_THREAD_COUNTS];
} bench_thread_counts;

static bench_thread_counts bench_threads(void) {
  bench_thread_counts c = {0, {0}};
  const char *env = getenv("XENZYME_BENCH_THREADS");
  const char *s = env && *env ? env : "1,2";
  while (*s && c.count < BENCH_MAX_THREAD_COUNTS) {
    char *end;
    long t = strtol(s, &end, 10);
    if (end == s || t < 1 || t > 256) {
      fprintf(stderr, "XENZYME_BENCH_THREADS: expected thread counts like 1,2, got '%s'\n", env);
      exit(2);
    }
    c.threads[c.count++] = (int)t;
    s = *end == ',' ? end + 1 : end;
  }
  return c;
}

/* One timed call at a given thread count. */
typedef struct {
  void (*fn)(void *);
  void *ctx;
  int threads;
} bench_omp_call;

static void bench_omp_run(void *p) {
  bench_omp_call *c = p;
  omp_set_num_threads(c->threads);
  c->fn(c->ctx);
}

/* Times primal (and gradient, unless NULL) at every thread count of tc, alternating. */
static void bench_omp_time(const char *bench, long n, int samples, bench_thread_counts tc, void (*primal)(void *),
                           void (*gradient)(void *), void *ctx) {
  static char names[2 * BENCH_MAX_THREAD_COUNTS][32];
  bench_omp_call calls[2 * BENCH_MAX_THREAD_COUNTS];
  bench_fn fns[2 * BENCH_MAX_THREAD_COUNTS];
  int k = 0;
  for (int i = 0; i < tc.count; i++)
    for (int g = 0; g < (gradient ? 2 : 1); g++, k++) {
      snprintf(names[k], sizeof names[k], "%s@%d", g ? "gradient" : "primal", tc.threads[i]);
      calls[k] = (bench_omp_call){g ? gradient : primal, ctx, tc.threads[i]};
      fns[k] = (bench_fn){names[k], bench_omp_run, &calls[k]};
    }
  bench_time(bench, n, samples, fns, k);
}

/* The larger of two errors, NaN if either is. */
static double bench_worse(double a, double b) { return isnan(a) || isnan(b) ? NAN : a > b ? a : b; }

/* "at 1 and 2 threads" */
static const char *bench_threads_text(bench_thread_counts tc) {
  static char text[96];
  int len = snprintf(text, sizeof text, "at");
  for (int i = 0; i < tc.count; i++)
    len += snprintf(text + len, sizeof text - (size_t)len, "%s%d", i == 0 ? " " : i == tc.count - 1 ? " and " : ", ",
                    tc.threads[i]);
  snprintf(text + len, sizeof text - (size_t)len, " thread%s", tc.count == 1 && tc.threads[0] == 1 ? "" : "s");
  return text;
}

#endif
