/* Mutable globals that carry derivatives between functions that are not inlined: a setter and a
 * getter, a global buffer handed to a helper (LLVM specialises the helper into one reading the
 * global directly), a global read before this call writes it (its adjoint must not survive into
 * the next call), and the same gradient asked for several times in a row. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

double g = 2.0, w[3];
static double buf[4];

__attribute__((noinline)) void set_g(double v) { g = v * v; }
__attribute__((noinline)) double get_w(int i) { return w[i] * g; }
__attribute__((noinline)) double sum_squares(const double *p, int m) {
  double acc = 0;
  for (int i = 0; i < m; i++) acc = acc * 0.5 + p[i] * p[i];
  return acc;
}

static double setter_getter(const double *x, int n) {
  set_g(x[0]);
  for (int i = 0; i < 3; i++) w[i] = sin(x[i % n] * (i + 1));
  return get_w(2) + g * x[1];
}

static double global_buffer(const double *x, int n) {
  for (int i = 0; i < 4; i++) buf[i] = sin(x[i % n] * x[(i + 1) % n]);
  return sum_squares(buf, 4) + buf[2];
}

/* g's old value is read before it is overwritten: with respect to x, it is a constant. */
static double read_then_write(const double *x, int n) {
  double before = g * x[0];
  set_g(x[1] + 1.0);
  return before + g * x[2];
}

/* Each evaluation starts from the same global state. */
static double g0;
#define REF(f) static double ref_##f(const double *x, int n) { g = g0; return f(x, n); }
REF(setter_getter)
REF(global_buffer)
REF(read_then_write)

#define CHECK(f, x, n)                                                                    \
  for (int rep = 0; rep < 3; rep++) { /* the same gradient again: nothing may linger */   \
    double dx[4] = {0};                                                                   \
    g = g0;                                                                               \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                    \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(ref_##f, x, n, i), 1e-6); \
  }

int main(void) {
  double x[3] = {0.7, -1.2, 0.4};
  g0 = 2.0;
  CHECK(setter_getter, x, 3)
  CHECK(global_buffer, x, 3)
  g0 = 1.5;
  CHECK(read_then_write, x, 3)
  return check_finish();
}
