/* Split mode with the tape in the caller's memory: `enzyme_allocated, size, enzyme_tape, buf`
 * on both halves, the buffer sized by __enzyme_augmentsize with the same activity markers --
 * once malloc'd, once on the stack with a constant size larger than needed.  The function has
 * a loop, so its tape holds caches; their storage is freed by the reverse, the buffer is the
 * caller's.  A third form passes `enzyme_tape, &slot` without enzyme_allocated: the augmented
 * call stores the tape pointer in the slot, the reverse reads it from there. */
#include "check.h"

extern void __enzyme_augmentfwd(void *, ...);
extern double __enzyme_augmentfwd_d(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern double __enzyme_reverse_d(void *, ...);
extern int __enzyme_augmentsize(void *, ...);
extern int enzyme_allocated, enzyme_tape;
enum { N = 6 };

/* out[0] = sum_i x[i]^2 * exp(-x[i] * c) (loop: x[i] and exp(...) are kept), out[1] = prod */
__attribute__((noinline)) static void energy(const double *x, double *out, int n, double c) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    double e = exp(-x[i] * c);
    s += x[i] * x[i] * e;
    p *= 1.0 + 0.1 * x[i] * e;
  }
  out[0] = s;
  out[1] = p;
}

/* returns a double and has an active scalar: the reverse returns d/dc */
__attribute__((noinline)) static double norm_scaled(const double *x, int n, double c) {
  double s = 0;
  for (int i = 0; i < n; i++) s += c * x[i] * x[i] * x[i];
  return s / (1.0 + c * c);
}

static double C = 0.45;
static double SEED0 = 1.5, SEED1 = -0.7;
static double energy_seeded(const double *x) {
  double out[2];
  energy(x, out, N, C);
  return SEED0 * out[0] + SEED1 * out[1];
}
static double X[N] = {0.4, -0.3, 1.2, 0.9, -1.1, 0.2};
static double norm_c(double c) { return norm_scaled(X, N, c); }
static double norm_x(const double *x) { return norm_scaled(x, N, C); }

int main(void) {
  double x[N], dx[N], out[2], dout[2];
  int size = __enzyme_augmentsize((void *)energy, enzyme_dup, enzyme_dup, enzyme_const, enzyme_const);
  printf("tape of energy: %d bytes\n", size);
  if (size <= 0) {
    printf("FAIL: a function with a loop has a non-empty tape\n");
    return 1;
  }

  /* 1. malloc'd buffer of exactly the size asked for */
  for (int i = 0; i < N; i++) x[i] = X[i], dx[i] = 0;
  void *buf = malloc(size);
  __enzyme_augmentfwd((void *)energy, enzyme_allocated, size, enzyme_tape, buf, enzyme_dup, x, dx, enzyme_dup,
                      out, dout, enzyme_const, N, enzyme_const, C);
  double ref[2];
  energy(X, ref, N, C);
  check_close("energy out[0] after augment", out[0], ref[0], 1e-14);
  check_close("energy out[1] after augment", out[1], ref[1], 1e-14);
  dout[0] = SEED0, dout[1] = SEED1;
  __enzyme_reverse((void *)energy, enzyme_allocated, size, enzyme_tape, buf, enzyme_dup, x, dx, enzyme_dup, out,
                   dout, enzyme_const, N, enzyme_const, C);
  free(buf);
  for (int i = 0; i < N; i++) {
    char what[40];
    snprintf(what, sizeof what, "malloc'd tape: dx[%d]", i);
    check_close(what, dx[i], fd_array(energy_seeded, X, i), 1e-6);
  }

  /* 2. on the stack, a constant size with room to spare (markers after the arguments) */
  char stack[256];
  if (size > (int)sizeof stack) {
    printf("FAIL: tape larger than expected (%d bytes)\n", size);
    return 1;
  }
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_augmentfwd((void *)energy, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N, enzyme_const, C,
                      enzyme_allocated, 256, enzyme_tape, stack);
  dout[0] = SEED0, dout[1] = SEED1;
  __enzyme_reverse((void *)energy, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N, enzyme_const, C,
                   enzyme_allocated, 256, enzyme_tape, stack);
  for (int i = 0; i < N; i++) {
    char what[40];
    snprintf(what, sizeof what, "stack tape: dx[%d]", i);
    check_close(what, dx[i], fd_array(energy_seeded, X, i), 1e-6);
  }

  /* 3. a function returning a double, its tape in a buffer: the augmented call returns the
   * primal value; the reverse takes the return adjoint (here after enzyme_tape) */
  int nsize = __enzyme_augmentsize((void *)norm_scaled, enzyme_dup, enzyme_const, enzyme_out);
  void *nbuf = malloc(nsize > 0 ? nsize : 1);
  for (int i = 0; i < N; i++) dx[i] = 0;
  double v = __enzyme_augmentfwd_d((void *)norm_scaled, enzyme_allocated, nsize, enzyme_tape, nbuf, enzyme_dup, x,
                                   dx, enzyme_const, N, enzyme_out, C);
  check_close("norm_scaled primal from the augmented call", v, norm_scaled(X, N, C), 1e-14);
  double dc = __enzyme_reverse_d((void *)norm_scaled, enzyme_allocated, nsize, enzyme_tape, nbuf, enzyme_dup, x, dx,
                                 enzyme_const, N, enzyme_out, C, 2.0);
  free(nbuf);
  check_close("d norm_scaled / dc (seed 2)", dc, 2.0 * fd1(norm_c, C), 1e-6);
  for (int i = 0; i < N; i++) {
    char what[40];
    snprintf(what, sizeof what, "d norm_scaled / dx[%d] (seed 2)", i);
    check_close(what, dx[i], 2.0 * fd_array(norm_x, X, i), 1e-6);
  }

  /* 4. enzyme_tape without enzyme_allocated: the tape pointer goes through a slot */
  void *slot = 0;
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_augmentfwd((void *)energy, enzyme_tape, &slot, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N,
                      enzyme_const, C);
  if (!slot) {
    printf("FAIL: no tape pointer stored in the slot\n");
    return 1;
  }
  dout[0] = SEED0, dout[1] = SEED1;
  __enzyme_reverse((void *)energy, enzyme_tape, &slot, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N,
                   enzyme_const, C);
  for (int i = 0; i < N; i++) {
    char what[40];
    snprintf(what, sizeof what, "tape slot: dx[%d]", i);
    check_close(what, dx[i], fd_array(energy_seeded, X, i), 1e-6);
  }
  return check_finish();
}
