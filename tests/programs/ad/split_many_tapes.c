/* The forward half called several times with different inputs, each call keeping its own
 * tape, then the reverse halves run in last-in-first-out and in first-in-first-out order:
 * a tape must hold everything its reverse needs (loop counts, branch choices, cached values)
 * independently of the others.  The function branches on its input and loops a data-dependent
 * number of times, so tapes of different calls differ in shape. */
#include "check.h"

extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
enum { K = 4, N = 3 };

/* a data-dependent loop count and branch; p[0..2] are parameters, t active scalar */
__attribute__((noinline)) static double model(double t, const double *p) {
  double y = p[0];
  int steps = 2 + (int)(fabs(t) * 3.0);
  for (int i = 0; i < steps; i++) {
    if (y > t)
      y = y - 0.3 * sin(y * p[1]) + t * 0.1;
    else
      y = y * (1.0 + 0.05 * t * t) + p[2] * cos(t);
  }
  return y * y + t;
}

static double P[N] = {0.9, 1.7, -0.4};
static const double *cur_p;
static double cur_t;
static double model_t(double t) { return model(t, cur_p); }
static double model_p(const double *p) { return model(cur_t, p); }

typedef struct {
  void *tape;
  double ret;
} aug_t;
extern aug_t __enzyme_augmentfwd_r(void *, ...);

int main(void) {
  double ts[K] = {0.2, -0.9, 1.4, 0.55};
  double ps[K][N], dps[K][N];
  aug_t augs[K];
  for (int order = 0; order < 2; order++) {
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++) ps[k][j] = P[j] + 0.1 * k * (j + 1), dps[k][j] = 0;
    for (int k = 0; k < K; k++) {
      augs[k] = __enzyme_augmentfwd_r((void *)model, ts[k], enzyme_dup, ps[k], dps[k]);
      check_close("primal from the augmented call", augs[k].ret, model(ts[k], ps[k]), 1e-14);
    }
    for (int n = 0; n < K; n++) {
      int k = order == 0 ? K - 1 - n : n; /* LIFO, then FIFO */
      double seed = 1.0 + 0.5 * k;
      double dt = __enzyme_reverse((void *)model, ts[k], enzyme_dup, ps[k], dps[k], seed, augs[k].tape);
      cur_p = ps[k];
      cur_t = ts[k];
      char what[64];
      snprintf(what, sizeof what, "%s call %d: dt", order == 0 ? "LIFO" : "FIFO", k);
      check_close(what, dt, seed * fd1(model_t, ts[k]), 1e-5);
      for (int j = 0; j < N; j++) {
        snprintf(what, sizeof what, "%s call %d: dp[%d]", order == 0 ? "LIFO" : "FIFO", k, j);
        check_close(what, dps[k][j], seed * fd_array(model_p, ps[k], j), 1e-5);
      }
    }
  }
  return check_finish();
}
