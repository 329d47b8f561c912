/* Timing and reporting helpers shared by the C benchmark programs.
 *
 * Protocol (benchmarks/README.md): a sample repeats a call until it lasts at least
 * BENCH_MIN_SAMPLE seconds; after a warm-up, `samples` samples of each timed function, taken in
 * alternation (primal, gradient, primal, ...); the median and the minimum time per call are
 * reported, and the minor page faults per call (getrusage) as a measure of fresh memory touched,
 * and, when benchmarks/c/heapcount.c is linked in, the heap each call allocates (below).  Every
 * result is one JSON object per line on stdout, so that benchmarks/run.py can read it;
 * human-readable notes go to stderr.
 *
 * Command line of every benchmark program:  prog [N [SAMPLES [DUMP]]]
 *   N        problem size (default: the benchmark's own)
 *   SAMPLES  timed samples per measurement (default 7); 0 checks the gradient and times nothing
 *   DUMP     optional path: the gradient is written there as raw little-endian doubles
 */
#ifndef XENZYME_BENCH_H
#define XENZYME_BENCH_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define BENCH_MIN_SAMPLE 0.05

int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;

typedef struct {
  long n;
  int samples;
  const char *dump;
} bench_args;

static bench_args bench_parse(int argc, char **argv, long default_n) {
  bench_args a = {default_n, 7, NULL};
  if (argc > 1) a.n = strtol(argv[1], NULL, 10);
  if (argc > 2) a.samples = (int)strtol(argv[2], NULL, 10);
  if (argc > 3) a.dump = argv[3];
  if (a.n < 1 || a.samples < 0 || a.samples > 1000) {
    fprintf(stderr, "usage: %s [N>=1 [SAMPLES in 0..1000 [DUMP]]]\n", argv[0]);
    exit(2);
  }
  return a;
}

static double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* splitmix64: the input generator; benchmarks/peers/ reproduces it bit for bit. */
static uint64_t bench_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A uniform double in [0, 1) with 53 random bits. */
static double bench_uniform(uint64_t *state) {
  return (double)(bench_splitmix64(state) >> 11) * 0x1.0p-53;
}

static int bench_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One function to time: fn(ctx), reported as `what`. */
typedef struct {
  const char *what;
  void (*fn)(void *);
  void *ctx;
} bench_fn;

static long bench_minor_faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

/* Heap accounting: benchmarks/c/heapcount.c, linked in by benchmarks/run.py, counts the
 * allocations made by the program's own code (and by the code xenzyme generated in it).  Read
 * through a weak reference: without heapcount.o the address is null and no heap figures are
 * reported. */
struct bench_heap {
  long long allocs, bytes, live, peak;
};
extern struct bench_heap bench_heap_counters __attribute__((weak));

static double bench_sample(void (*volatile call)(void *), void *ctx, long reps) {
  double t0 = bench_now();
  for (long r = 0; r < reps; r++) call(ctx);
  return (bench_now() - t0) / (double)reps;
}

/* Times the k functions side by side: each is calibrated so that a sample (the call repeated
 * `reps` times) lasts >= BENCH_MIN_SAMPLE, which is also its warm-up; then `samples` rounds, each
 * taking one sample of every function in turn, so that drift in the machine's speed during the
 * run affects all of them alike.  Prints one JSON line per function: median and minimum seconds
 * per call, and the samples in the order taken. */
static void bench_time(const char *bench, long n, int samples, const bench_fn *fns, int k) {
  long reps[8];
  double t[8][1000];
  if (k > 8) k = 8;
  for (int j = 0; j < k; j++) {
    /* Called through a volatile pointer: the timed functions stay out of line and unspecialised,
     * compiled exactly as any other caller would see them. */
    void (*volatile call)(void *) = fns[j].fn;
    reps[j] = 1;
    for (;;) {
      double dt = bench_sample(call, fns[j].ctx, reps[j]) * (double)reps[j];
      if (dt >= BENCH_MIN_SAMPLE) break;
      long next = dt > 0 ? (long)(reps[j] * 1.2 * BENCH_MIN_SAMPLE / dt) + 1 : reps[j] * 10;
      reps[j] = next > 2 * reps[j] ? next : 2 * reps[j];
    }
  }
  long faults[8] = {0};
  /* Heap use during the timed samples: allocation calls and bytes requested per call, and the
   * largest amount of heap live at once above the level at the start of a sample. */
  struct bench_heap *heap = &bench_heap_counters;
  long long allocs[8] = {0}, bytes[8] = {0}, peak[8] = {0};
  for (int s = 0; s < samples; s++)
    for (int j = 0; j < k; j++) {
      long f0 = bench_minor_faults();
      long long a0 = 0, b0 = 0, live0 = 0;
      if (heap) {
        a0 = heap->allocs, b0 = heap->bytes, live0 = heap->live;
        heap->peak = live0;
      }
      t[j][s] = bench_sample(fns[j].fn, fns[j].ctx, reps[j]);
      faults[j] += bench_minor_faults() - f0;
      if (heap) {
        allocs[j] += heap->allocs - a0;
        bytes[j] += heap->bytes - b0;
        if (heap->peak - live0 > peak[j]) peak[j] = heap->peak - live0;
      }
    }
  for (int j = 0; j < k; j++) {
    double sorted[1000];
    memcpy(sorted, t[j], sizeof(double) * (size_t)samples);
    qsort(sorted, (size_t)samples, sizeof(double), bench_cmp);
    double median = samples % 2 ? sorted[samples / 2]
                                : 0.5 * (sorted[samples / 2 - 1] + sorted[samples / 2]);
    printf("{\"bench\": \"%s\", \"kind\": \"time\", \"what\": \"%s\", \"n\": %ld, "
           "\"reps\": %ld, \"median_s\": %.9g, \"min_s\": %.9g, \"page_faults_per_call\": %.6g, "
           "\"samples_s\": [",
           bench, fns[j].what, n, reps[j], median, sorted[0],
           samples ? (double)faults[j] / ((double)samples * (double)reps[j]) : 0.0);
    for (int s = 0; s < samples; s++) printf("%s%.9g", s ? ", " : "", t[j][s]);
    printf("]");
    if (heap && samples) {
      double calls = (double)samples * (double)reps[j];
      printf(", \"heap_allocs_per_call\": %.6g, \"heap_bytes_per_call\": %.6g, "
             "\"heap_peak_bytes\": %lld", (double)allocs[j] / calls, (double)bytes[j] / calls,
             peak[j]);
    }
    printf("}\n");
  }
  fflush(stdout);
}

/* Prints the gradient check as one JSON line; returns 0 when it passed. */
static int bench_report_check(const char *bench, long n, double value, double err, double tol,
                              const char *against) {
  int ok = err <= tol; /* false for NaN */
  printf("{\"bench\": \"%s\", \"kind\": \"check\", \"n\": %ld, \"value\": %.17g, "
         "\"rel_err\": %.3g, \"tol\": %.3g, \"against\": \"%s\", \"ok\": %s}\n",
         bench, n, value, err, tol, against, ok ? "true" : "false");
  fflush(stdout);
  if (!ok) fprintf(stderr, "%s: gradient check FAILED (relative error %.3g > %.3g)\n", bench, err, tol);
  return ok ? 0 : 1;
}

/* Prints a check against central finite differences on `components` entries of the gradient as
 * one JSON line ("kind": "fd_check"; err is the largest relative error); returns 0 when passed. */
static int bench_report_fd_check(const char *bench, long n, int components, double err,
                                 double tol) {
  int ok = err <= tol; /* false for NaN */
  printf("{\"bench\": \"%s\", \"kind\": \"fd_check\", \"n\": %ld, \"components\": %d, "
         "\"max_rel_err\": %.3g, \"tol\": %.3g, \"ok\": %s}\n",
         bench, n, components, err, tol, ok ? "true" : "false");
  fflush(stdout);
  if (!ok)
    fprintf(stderr, "%s: finite-difference check FAILED (relative error %.3g > %.3g)\n", bench,
            err, tol);
  return ok ? 0 : 1;
}

static int bench_dump(const char *path, const double *g, long n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(g, sizeof(double), (size_t)n, f) != (size_t)n || fclose(f)) {
    fprintf(stderr, "cannot write %s\n", path);
    return 1;
  }
  return 0;
}

/* Keeps results alive so that timed calls are not optimised away. */
static volatile double bench_sink;

#endif
