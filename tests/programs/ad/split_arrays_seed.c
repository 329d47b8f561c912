/* Split mode on a void function over arrays: the augmented call computes the outputs (checked
 * right after it), the caller then sets the seed in the output's shadow and changes an input
 * between the halves -- the reverse pass must use the values the forward pass saw, not
 * re-read them -- and __enzyme_reverse accumulates into the input shadows (which start
 * non-zero, so an overwrite instead of a sum shows). */
#include "check.h"

extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
enum { N = 5 };

/* y[i] = x[i] * x[(i+1)%n] + w * sin(x[i]) ; w constant */
__attribute__((noinline)) static void mix(const double *x, double *y, double w, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[(i + 1) % n] + w * sin(x[i]);
}

static const double W = 0.8;
static double SEED[N] = {1.0, -2.0, 0.5, 3.0, -0.25};

static double weighted(const double *x) {
  double y[N], s = 0;
  mix(x, y, W, N);
  for (int i = 0; i < N; i++) s += SEED[i] * y[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.8, 1.5, -0.6}, x0[N];
  double dx[N] = {0.5, 0.5, 0.5, 0.5, 0.5};
  double y[N], dy[N] = {0};
  for (int i = 0; i < N; i++) x0[i] = x[i];

  void *tape = __enzyme_augmentfwd((void *)mix, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, W,
                                   enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char what[32];
    snprintf(what, sizeof what, "y[%d] after augment", i);
    check_close(what, y[i], x0[i] * x0[(i + 1) % N] + W * sin(x0[i]), 1e-14);
  }
  for (int i = 0; i < N; i++) dy[i] = SEED[i];
  for (int i = 0; i < N; i++) x[i] = 100.0 + i; /* the caller reuses x between the halves */
  __enzyme_reverse((void *)mix, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, W, enzyme_const, N, tape);

  for (int i = 0; i < N; i++) {
    char what[32];
    snprintf(what, sizeof what, "dx[%d]", i);
    check_close(what, dx[i], 0.5 + fd_array(weighted, x0, i), 1e-6);
  }
  check_zero("dy after reverse", dy, N);
  return check_finish();
}
