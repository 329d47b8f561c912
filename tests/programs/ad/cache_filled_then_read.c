/* Memory filled first and only read afterwards is read again by the reverse sweep rather than
 * cached; memory written again after a read must still give the reverse sweep the value read
 * then.  Each shape below mixes the two. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 12, M = 5 };
int n = N, m = M; /* read at run time: the loops keep their tables in memory */

/* A table filled from x, then read in a second loop (nothing writes it after). */
static double table_then_read(const double *x) {
  double t[N];
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) + x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[(i + 3) % n] * x[i];
  return s;
}

/* Two phases on one buffer: read, rewritten, read again.  The first phase's reads must reach
 * the reverse sweep with the values of the first fill. */
static double two_phases(const double *x) {
  double t[N];
  for (int i = 0; i < n; i++) t[i] = exp(0.3 * x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i] * x[(i + 1) % n];
  for (int i = 0; i < n; i++) t[i] = cos(x[i]) * s;
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  return s;
}

/* A scratch row rewritten in every outer iteration and read in the same iteration. */
static double scratch_rows(const double *x) {
  double row[M];
  double s = 0;
  for (int k = 0; k < n / 2; k++) {
    for (int j = 0; j < m; j++) row[j] = x[(k + j) % n] * x[k] + 0.1 * j;
    for (int j = 0; j < m; j++) s += row[j] * row[(j + 2) % m] * sin(x[(2 * k + j) % n]);
  }
  return s;
}

/* A heap temporary filled from x, read in a loop, freed at the end. */
static double heap_then_read(const double *x) {
  double *q = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) q[i] = tanh(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) s += q[i] * q[j] * x[(i + j) % n];
  free(q);
  return s;
}

/* A table filled from a constant formula (no derivative of its own), read nonlinearly. */
static double weights_then_read(const double *x) {
  double w[N];
  for (int i = 0; i < n; i++) w[i] = 1.0 / (1.0 + i);
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] + w[n - 1 - i] * sin(w[i] * x[i]);
  return s;
}

static void check_one(const char *name, double (*f)(const double *), const double *dx, double *x) {
  for (int i = 0; i < N; i += 2) {
    char what[64];
    snprintf(what, sizeof what, "%s: df/dx[%d]", name, i);
    check_close(what, dx[i], fd_array(f, x, i), 1e-6);
  }
}

/* Each request names its function, as __enzyme_autodiff needs. */
#define CHECK(f, c)                                                       \
  do {                                                                    \
    for (int i = 0; i < N; i++) { x[i] = 0.37 * i - 1.9 + 0.05 * (c); dx[i] = 0; } \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);                      \
    check_one(#f, f, dx, x);                                              \
  } while (0)

int main(void) {
  double x[N], dx[N];
  CHECK(table_then_read, 0);
  CHECK(two_phases, 1);
  CHECK(scratch_rows, 2);
  CHECK(heap_then_read, 3);
  CHECK(weights_then_read, 4);
  return check_finish();
}
