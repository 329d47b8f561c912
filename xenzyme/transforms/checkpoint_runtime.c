/* The schedules of checkpointed loops (checkpoint-loops), compiled into checkpoint_runtime.ll:
 *
 *   clang-19 -O2 -S -emit-llvm -fno-math-errno xenzyme/transforms/checkpoint_runtime.c \
 *       -o xenzyme/transforms/checkpoint_runtime.ll
 *
 * A checkpointed loop is n calls of a step function on a state: a block of `size` bytes (the
 * loop-carried values, see checkpoint_loops.py), and the memory the body overwrites, `nreg`
 * regions whose addresses and lengths are in the block at `table` (pairs of i64).  A snapshot
 * is the block followed by the regions' bytes.  A loop whose trip count is not known when it
 * starts (n < 0) runs until the step stores 0 in the byte at `flag` of the block; the forward
 * half counts its steps, and the reverse half schedules them as those of a counted loop (the
 * primal's run is the sweep that finds n: no checkpoint is placed by it beyond the first, as
 * for a counted loop).  The
 * forward half runs the steps and keeps the snapshots its scheme needs (the tape); the reverse
 * half calls the step's gradient for the steps n-1, ..., 0, each with the state it started
 * from, rebuilt from the nearest snapshot by steps run again without taping.
 *
 *   scheme 0, binomial: `param` snapshots (the state at entry among them), placed as revolve
 *             places them (Griewank & Walther): the fewest steps run again for that memory;
 *   scheme 1, periodic: a snapshot every `param` steps, taken while the primal runs; each
 *             segment is reversed by one gradient of `param` steps (taped as a whole);
 *   scheme 2, budget: binomial, with as many snapshots as `param` bytes hold,
 *             c = max(1, param / snapshot bytes): the snapshot's size (the block and the
 *             regions' lengths) is known only when the loop starts;
 *   scheme 3, online: at most `param` = c snapshots, placed while the primal runs, for loops
 *             whose trip count is not known when they start.  The state before step k is
 *             kept when k is a multiple of a spacing s (1 at first, the state at entry always
 *             kept); when a snapshot is due and all c slots are full, those at odd multiples
 *             of s are dropped and s doubles (the due one is then kept if k is a multiple of
 *             the new s).  The kept snapshots p_0 = 0 < ... < p_{m-1} (p_m = n) cut the steps
 *             into segments; the reverse half reverses the steps p_i .. p_e - 1 (from the
 *             last: e = m first) by revolve from snapshot i, with the c - i slots from its
 *             own on (those after it are free by then; at most p_e - p_i), then goes on with
 *             e = i.  Each i is chosen by a dynamic programme over the kept snapshots for the
 *             fewest steps run again in all: skipping snapshots gives a long stretch more
 *             slots (i = 0, e = m is binomial's schedule: never more steps than it).
 *
 * `__xenzyme_checkpoint_steps` counts the steps run again without taping by the reverse
 * halves, `__xenzyme_checkpoint_snapshots` holds the number of snapshots the last binomial
 * reversal had (c, at most n), or the online scheme's primal run kept (weak: a program may define them and read them). */
#include <stdlib.h>
#include <string.h>

typedef void (*xz_step_fn)(void *state, void *env, long steps); /* (runs `steps` steps) */
typedef void (*xz_back_fn)(void *state, void *dstate, void *env);
typedef void (*xz_segment_fn)(long count, void *state, void *dstate, void *env);

__attribute__((weak)) long __xenzyme_checkpoint_steps;
__attribute__((weak)) long __xenzyme_checkpoint_snapshots;

struct xz_layout {
  long size, nreg, table, bytes;
};

struct xz_tape {
  long n, scheme, param;
  struct xz_layout at;
  char *slots;
  long *pos, kept; /* (online: the steps before which the kept snapshots were taken) */
};

struct xz_run {
  struct xz_layout at;
  long size;
  char *slots, *state, *dstate;
  void *env;
  xz_step_fn step;
  xz_back_fn back;
  long fresh; /* (the slot the state and the regions were last saved to, unchanged since; -1: none) */
};

/* r, the fewest repetitions with beta(c, r) >= n, where beta(c, r) = (c + r)! / (c! r!) is the
 * most steps c snapshots reverse with r repetitions; *b is beta(c, r).  Built up from
 * beta(c, 0) = 1 by beta(c, r + 1) = beta(c, r) (c + r + 1) / (r + 1), one product and one
 * exact division per repetition (this runs once per split of a reversal, about once per step
 * reversed: a beta computed afresh costs c divisions). */
static long xz_reps(long c, long n, double *b) {
  long r = 0;
  double beta = 1;
  while (beta < (double)n) {
    beta = beta * (double)(c + r + 1) / (double)(r + 1);
    r++;
  }
  *b = beta;
  return r;
}

static struct xz_layout xz_layout(const char *state, long size, long nreg, long table) {
  struct xz_layout at = {size, nreg, table, size};
  for (long i = 0; i < nreg; i++) at.bytes += ((const long *)(state + table))[2 * i + 1];
  return at;
}

static void xz_save(const struct xz_layout *at, char *to, const char *state) {
  memcpy(to, state, at->size);
  to += at->size;
  for (long i = 0; i < at->nreg; i++) {
    const long *region = (const long *)(state + at->table) + 2 * i;
    memcpy(to, (const void *)region[0], region[1]);
    to += region[1];
  }
}

static void xz_restore(const struct xz_layout *at, char *state, const char *from) {
  memcpy(state, from, at->size);
  from += at->size;
  for (long i = 0; i < at->nreg; i++) {
    const long *region = (const long *)(state + at->table) + 2 * i;
    memcpy((void *)region[0], from, region[1]);
    from += region[1];
  }
}

static void xz_advance(struct xz_run *run, long slot, long steps) {
  if (run->fresh != slot) xz_restore(&run->at, run->state, run->slots + slot * run->size);
  run->fresh = steps ? -1 : slot;
  if (steps) run->step(run->state, run->env, steps);
  __xenzyme_checkpoint_steps += steps;
}

static void xz_back(struct xz_run *run) {
  run->fresh = -1; /* (the step's gradient runs the step again: the regions change) */
  run->back(run->state, run->dstate, run->env);
}

/* The steps xz_revolve runs again for n steps and c slots: r n - beta(c+1, r-1), r the fewest
 * repetitions with beta(c, r) >= n (Griewank). */
static long xz_cost(long n, long c) {
  if (n <= 1) return 0;
  if (c == 1) return n * (n - 1) / 2;
  double b;
  long r = xz_reps(c, n, &b);
  return r * n - (long)(b * (double)r / (double)(c + 1) + 0.5); /* (beta(c+1, r-1) = beta(c, r) r / (c+1)) */
}

/* Reverses the n steps from the state in `slot`, with c slots from `slot` on (its own among
 * them).  The split m, with r the fewest repetitions for which beta(c, r) >= n, is
 * max(n - beta(c-1, r), beta(c, r-2)): optimal (checked against the dynamic programme of the
 * minimal cost in tests/test_checkpointing.py). */
static void xz_revolve(struct xz_run *run, long slot, long n, long c) {
  while (n > 0) {
    if (n == 1) {
      xz_advance(run, slot, 0);
      xz_back(run);
      return;
    }
    if (c == 1) {
      for (long k = n - 1; k >= 0; k--) {
        xz_advance(run, slot, k);
        xz_back(run);
      }
      return;
    }
    double b;
    long r = xz_reps(c, n, &b);
    /* (beta(c-1, r) = beta(c, r) c / (c+r); beta(c, r-1) = beta(c, r) r / (c+r), and so on) */
    long m = n - (long)(b * (double)c / (double)(c + r) + 0.5);
    double b1 = b * (double)r / (double)(c + r);
    long alt = r >= 2 ? (long)(b1 * (double)(r - 1) / (double)(c + r - 1) + 0.5) : 0;
    if (alt > m) m = alt;
    if (m < 1) m = 1;
    if (m > n - 1) m = n - 1;
    xz_advance(run, slot, m);
    if (n - m == 1) { /* (the last step: reversed from the state at hand, which needs no snapshot) */
      xz_back(run);
    } else {
      xz_save(&run->at, run->slots + (slot + 1) * run->size, run->state);
      run->fresh = slot + 1;
      xz_revolve(run, slot + 1, n - m, c - 1);
    }
    n = m;
  }
}

void *__xenzyme_checkpoint_forward(long n, void *state, long size, long nreg, long table, long flag, xz_step_fn step,
                                   void *env, long scheme, long param) {
  struct xz_tape *t = malloc(sizeof *t);
  t->scheme = scheme;
  t->param = param;
  t->at = xz_layout(state, size, nreg, table);
  long bytes = t->at.bytes;
  if (scheme == 2) { /* (a budget of `param` bytes: binomial, with the snapshots it holds) */
    t->scheme = scheme = 0;
    t->param = param = param / bytes > 1 ? param / bytes : 1;
  }
  t->pos = NULL;
  t->kept = 1;
  if (scheme == 3) { /* (online: c slots, snapshots placed as the steps run) */
    t->slots = malloc(param * bytes);
    t->pos = malloc(param * sizeof(long));
    t->pos[0] = 0;
    xz_save(&t->at, t->slots, state);
    long s = 1, k = 0;
    for (; n < 0 || k < n; k++) {
      if (k > 0 && k % s == 0) {
        if (t->kept == param) { /* (full: keep the multiples of 2s) */
          long kept = 0;
          for (long i = 0; i < t->kept; i++)
            if (t->pos[i] % (2 * s) == 0) {
              if (kept != i) memcpy(t->slots + kept * bytes, t->slots + i * bytes, bytes);
              t->pos[kept++] = t->pos[i];
            }
          t->kept = kept;
          s *= 2;
        }
        if (k % s == 0) {
          xz_save(&t->at, t->slots + t->kept * bytes, state);
          t->pos[t->kept++] = k;
        }
      }
      if (n >= 0) { /* (a counted loop: the steps up to the next snapshot due, at once) */
        long run = (k / s + 1) * s < n ? (k / s + 1) * s - k : n - k;
        step(state, env, run);
        k += run - 1;
        continue;
      }
      step(state, env, 1);
      if (!((const char *)state)[flag]) {
        k++;
        break;
      }
    }
    t->n = k;
    return t;
  }
  long count = scheme == 0 || n < 0 ? 1 : (n + param - 1) / param;
  if (count < 1) count = 1;
  t->slots = malloc(count * bytes);
  xz_save(&t->at, t->slots, state);
  long k = 0;
  if (n >= 0) { /* (a counted loop: the steps between snapshots at once) */
    for (; k < n; k += scheme == 1 ? param : n) {
      if (scheme == 1) xz_save(&t->at, t->slots + (k / param) * bytes, state);
      step(state, env, scheme == 1 && param < n - k ? param : n - k);
    }
    t->n = n;
    return t;
  }
  for (;; k++) {
    if (scheme == 1 && k % param == 0) {
      if (k / param >= count) { /* (a loop of unknown length: more room) */
        count *= 2;
        t->slots = realloc(t->slots, count * bytes);
      }
      xz_save(&t->at, t->slots + (k / param) * bytes, state);
    }
    step(state, env, 1);
    if (!((const char *)state)[flag]) {
      k++;
      break;
    }
  }
  t->n = k;
  return t;
}

void __xenzyme_checkpoint_reverse(void *tape, void *state, void *dstate, xz_step_fn step, xz_back_fn back,
                                  xz_segment_fn segment, void *env) {
  struct xz_tape *t = tape;
  long n = t->n, bytes = t->at.bytes;
  if (t->scheme == 1) {
    for (long s = (n + t->param - 1) / t->param - 1; s >= 0; s--) {
      long len = n - s * t->param < t->param ? n - s * t->param : t->param;
      xz_restore(&t->at, state, t->slots + s * bytes);
      __xenzyme_checkpoint_steps += len;
      segment(len, state, dstate, env);
    }
  } else if (t->scheme == 3) {
    __xenzyme_checkpoint_snapshots = t->kept;
    struct xz_run run = {t->at, bytes, t->slots, state, dstate, env, step, back, -1};
    long m = t->kept, *p = t->pos;
    long *best = malloc((m + 1) * sizeof(long)), *from = malloc((m + 1) * sizeof(long));
    best[0] = 0;
    for (long e = 1; e <= m; e++) { /* (best[e]: the fewest steps run again for p_0 .. p_e) */
      long end = e < m ? p[e] : n;
      best[e] = -1;
      for (long i = e - 1; i >= 0; i--) {
        long len = end - p[i], c = t->param - i < len ? t->param - i : len;
        long cost = best[i] + xz_cost(len, c);
        if (best[e] < 0 || cost < best[e]) {
          best[e] = cost;
          from[e] = i;
        }
      }
    }
    for (long e = m; e > 0; e = from[e]) {
      long i = from[e], len = (e < m ? p[e] : n) - p[i];
      if (len > 0) xz_revolve(&run, i, len, t->param - i < len ? t->param - i : len);
    }
    free(best);
    free(from);
    free(t->pos);
  } else if (n > 0) {
    long c = t->param < n ? t->param : n;
    __xenzyme_checkpoint_snapshots = c;
    struct xz_run run = {t->at, bytes, malloc(c * bytes), state, dstate, env, step, back, -1};
    memcpy(run.slots, t->slots, bytes);
    xz_revolve(&run, 0, n, c);
    free(run.slots);
  }
  free(t->slots);
  free(t);
}
