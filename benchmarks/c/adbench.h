/* Helpers shared by the ADBench programs gmm.c, ba.c and lstm.c: where the input file is, a
 * tokenizer for ADBench's text files, random directions for finite-difference checks, and the
 * program's mode.
 *
 * Input: the file named by $XENZYME_BENCH_INPUT (benchmarks/run.py sets it to the instance it
 * runs), else the program's default instance in benchmarks/data/ (found from this header's own
 * path, so a program built from the repository runs from any working directory).  The data files
 * are ADBench's (MIT licence: LICENSE.ADBench.txt beside each data file).
 *
 * Mode: $XENZYME_BENCH_MODE=fd turns a program into its finite-difference peer: it computes its
 * full derivative by central differences in C, checks xenzyme's against it (1e-5 relative,
 * 2-norm), and times the primal and the finite-difference derivative ("gradient") instead of
 * xenzyme's.  Unset, the program checks xenzyme's derivative (against central differences along
 * a few random directions) and times the primal and xenzyme's derivative.
 */
#ifndef XENZYME_ADBENCH_H
#define XENZYME_ADBENCH_H

#include "bench.h"

/* The path of the input file: $XENZYME_BENCH_INPUT, else benchmarks/data/<rel>. */
static const char *adb_input(const char *rel) {
  const char *env = getenv("XENZYME_BENCH_INPUT");
  if (env && *env) return env;
  static char path[4096];
  const char *here = __FILE__; /* .../benchmarks/c/adbench.h */
  const char *slash = strrchr(here, '/');
  int dir = slash ? (int)(slash - here) : 0;
  snprintf(path, sizeof path, "%.*s%s../data/%s", dir, here, slash ? "/" : "", rel);
  return path;
}

static int adb_fd_mode(void) {
  const char *m = getenv("XENZYME_BENCH_MODE");
  return m && strcmp(m, "fd") == 0;
}

typedef struct {
  FILE *f;
  const char *path;
} adb_reader;

static adb_reader adb_open(const char *path) {
  adb_reader r = {fopen(path, "r"), path};
  if (!r.f) {
    fprintf(stderr, "cannot open %s (set XENZYME_BENCH_INPUT to an ADBench input file)\n", path);
    exit(1);
  }
  return r;
}

static double adb_double(adb_reader *r) {
  double v;
  if (fscanf(r->f, "%lf", &v) != 1) {
    fprintf(stderr, "%s: malformed or truncated input\n", r->path);
    exit(1);
  }
  return v;
}

static long adb_long(adb_reader *r) {
  long v;
  if (fscanf(r->f, "%ld", &v) != 1) {
    fprintf(stderr, "%s: malformed or truncated input\n", r->path);
    exit(1);
  }
  return v;
}

static void *adb_alloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

/* A random direction with entries uniform in [-1, 1) (splitmix64). */
static void adb_direction(uint64_t *state, double *v, long n) {
  for (long i = 0; i < n; i++) v[i] = 2.0 * bench_uniform(state) - 1.0;
}

/* Relative error of a against b in the 2-norm: |a - b| / |b|. */
static double adb_rel_err(const double *a, const double *b, long n) {
  double num = 0, den = 0;
  for (long i = 0; i < n; i++) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Central-difference step for a coordinate of size |x|. */
static double adb_step(double x) { return 1e-6 * (fabs(x) > 1 ? fabs(x) : 1.0); }

#endif
