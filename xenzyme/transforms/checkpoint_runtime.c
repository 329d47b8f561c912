/* The schedules of checkpointed loops (checkpoint-loops), compiled into checkpoint_runtime.ll:
 *
 *   clang-19 -O2 -S -emit-llvm -fno-math-errno xenzyme/transforms/checkpoint_runtime.c \
 *       -o xenzyme/transforms/checkpoint_runtime.ll
 *
 * A checkpointed loop is n calls of a step function on a state (a block of `size` bytes: the
 * loop-carried values and the memory the body overwrites, see checkpoint_loops.py).  The
 * forward half runs the steps and keeps the snapshots its scheme needs (the tape); the reverse
 * half calls the step's gradient for the steps n-1, ..., 0, each with the state it started
 * from, rebuilt from the nearest snapshot by steps run again without taping.
 *
 *   scheme 0, binomial: `param` snapshots (the state at entry among them), placed as revolve
 *             places them (Griewank & Walther): the fewest steps run again for that memory;
 *   scheme 1, periodic: a snapshot every `param` steps, taken while the primal runs; each
 *             segment is reversed by one gradient of `param` steps (taped as a whole).
 *
 * `__xenzyme_checkpoint_steps` counts the steps run again without taping by the reverse
 * halves (weak: a program may define it and read it). */
#include <stdlib.h>
#include <string.h>

typedef void (*xz_step_fn)(void *state, void *env);
typedef void (*xz_back_fn)(void *state, void *dstate, void *env);
typedef void (*xz_segment_fn)(long count, void *state, void *dstate, void *env);

__attribute__((weak)) long __xenzyme_checkpoint_steps;

struct xz_tape {
  long n, size, scheme, param;
  char *slots;
};

struct xz_run {
  long size;
  char *slots, *state, *dstate;
  void *env;
  xz_step_fn step;
  xz_back_fn back;
};

/* beta(c, r) = (c + r)! / (c! r!): the most steps c snapshots reverse with r repetitions;
 * saturated, and 0 for r < 0. */
static long xz_beta(long c, long r) {
  if (r < 0) return 0;
  double b = 1;
  for (long k = 1; k <= c; k++) {
    b = b * (double)(r + k) / (double)k;
    if (b > 4e18) return (long)4e18;
  }
  return (long)(b + 0.5);
}

static void xz_advance(struct xz_run *run, long slot, long steps) {
  memcpy(run->state, run->slots + slot * run->size, run->size);
  for (long k = 0; k < steps; k++) run->step(run->state, run->env);
  __xenzyme_checkpoint_steps += steps;
}

/* Reverses the n steps from the state in `slot`, with c slots from `slot` on (its own among
 * them).  The split m, with r the fewest repetitions for which beta(c, r) >= n, is
 * max(n - beta(c-1, r), beta(c, r-2)): optimal (checked against the dynamic programme of the
 * minimal cost in tests/test_checkpointing.py). */
static void xz_revolve(struct xz_run *run, long slot, long n, long c) {
  while (n > 0) {
    if (n == 1) {
      xz_advance(run, slot, 0);
      run->back(run->state, run->dstate, run->env);
      return;
    }
    if (c == 1) {
      for (long k = n - 1; k >= 0; k--) {
        xz_advance(run, slot, k);
        run->back(run->state, run->dstate, run->env);
      }
      return;
    }
    long r = 0;
    while (xz_beta(c, r) < n) r++;
    long m = n - xz_beta(c - 1, r);
    long alt = xz_beta(c, r - 2);
    if (alt > m) m = alt;
    if (m < 1) m = 1;
    if (m > n - 1) m = n - 1;
    xz_advance(run, slot, m);
    memcpy(run->slots + (slot + 1) * run->size, run->state, run->size);
    xz_revolve(run, slot + 1, n - m, c - 1);
    n = m;
  }
}

void *__xenzyme_checkpoint_forward(long n, void *state, long size, xz_step_fn step, void *env, long scheme,
                                   long param) {
  struct xz_tape *t = malloc(sizeof *t);
  if (n < 0) n = 0;
  t->n = n;
  t->size = size;
  t->scheme = scheme;
  t->param = param;
  long count = scheme == 0 ? 1 : (n + param - 1) / param;
  t->slots = malloc((count ? count : 1) * size);
  memcpy(t->slots, state, size);
  for (long k = 0; k < n; k++) {
    if (scheme == 1 && k % param == 0) memcpy(t->slots + (k / param) * size, state, size);
    step(state, env);
  }
  return t;
}

void __xenzyme_checkpoint_reverse(void *tape, void *state, void *dstate, xz_step_fn step, xz_back_fn back,
                                  xz_segment_fn segment, void *env) {
  struct xz_tape *t = tape;
  long n = t->n, size = t->size;
  if (t->scheme == 1) {
    for (long s = (n + t->param - 1) / t->param - 1; s >= 0; s--) {
      long len = n - s * t->param < t->param ? n - s * t->param : t->param;
      memcpy(state, t->slots + s * size, size);
      __xenzyme_checkpoint_steps += len;
      segment(len, state, dstate, env);
    }
  } else if (n > 0) {
    long c = t->param < n ? t->param : n;
    struct xz_run run = {size, malloc(c * size), state, dstate, env, step, back};
    memcpy(run.slots, t->slots, size);
    xz_revolve(&run, 0, n, c);
    free(run.slots);
  }
  free(t->slots);
  free(t);
}
