/* Variable-length arrays one after another: a loop of constant trip count, which LLVM unrolls
 * into arrays in sequence, each freed (stackrestore) before the next takes its stack bytes.  The
 * reverse sweep reads each array and its shadow after the next ones were made. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
#define N 3

int n_runtime = N; /* (not static: its value is known only at run time) */

/* Arrays of growing size, filled from x and summed. */
static double growing(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 3; r++) {
    double w[n + r];
    for (int i = 0; i < n + r; i++) w[i] = x[i % n] * (r + 1);
    for (int i = 0; i < n + r; i++) s += w[i] * w[i];
  }
  return s;
}

/* Linear in x: each round's array summed as it is. */
static double summed(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 3; r++) {
    double w[n + r];
    for (int i = 0; i < n + r; i++) w[i] = x[i % n];
    for (int i = 0; i < n + r; i++) s += w[i];
  }
  return s;
}

/* The same size each round, scaled by the round. */
static double scaled(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 3; r++) {
    double w[n];
    for (int i = 0; i < n; i++) w[i] = x[i] * (r + 1);
    for (int i = 0; i < n; i++) s += w[i];
  }
  return s;
}

/* Same size each time, the values scaled per round. */
static double rounds(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 4; r++) {
    double w[n];
    for (int i = 0; i < n; i++) w[i] = sin(x[i]) * (r + 1);
    for (int i = 0; i < n; i++) s += w[i] * x[(i + r) % n];
  }
  return s;
}

/* Two arrays in one round: the second is made while the first is live. */
static double two_per_round(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 2; r++) {
    double a[n];
    for (int i = 0; i < n; i++) a[i] = x[i] + r;
    double b[n + 1];
    for (int i = 0; i <= n; i++) b[i] = a[i % n] * a[(i + 1) % n];
    for (int i = 0; i <= n; i++) s += b[i];
  }
  return s;
}

#define CHECK_ALL(f, x)                                                 \
  do {                                                                  \
    double dx[N] = {0};                                                 \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n_runtime); \
    for (int i = 0; i < N; i++) {                                       \
      char what[64];                                                    \
      snprintf(what, sizeof what, "%s d/dx[%d]", #f, i);                \
      check_close(what, dx[i], fd_array_n(f, x, N, i), 1e-6);           \
    }                                                                   \
  } while (0)

int main(void) {
  double x[N] = {0.3, -0.8, 1.1};
  CHECK_ALL(growing, x);
  CHECK_ALL(summed, x);
  CHECK_ALL(scaled, x);
  CHECK_ALL(rounds, x);
  CHECK_ALL(two_per_round, x);
  return check_finish();
}
