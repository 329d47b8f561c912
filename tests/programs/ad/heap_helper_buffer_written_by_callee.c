/* A buffer a helper (not inlined) allocates and returns, then written by another function (not
 * inlined) with values that carry derivatives, and read back: the pointer the helper returns
 * needs a shadow although nothing active flows into the helper.  The buffer comes from calloc
 * (left zero, or filled with constants) or malloc, and is written whole or in part; a second
 * writer accumulates into it; or a struct on the stack gets the buffer from an init function
 * (not inlined) and the writer is handed the pointer loaded from it.  Checked against central differences of the primal (at -O2,
 * where clang marks the helpers' results noalias and the writers' pointers writeonly, the
 * gradient of such a buffer once came out 0). */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static double *zeros(int m) { return (double *)calloc(m, sizeof(double)); }

__attribute__((noinline)) static double *ramp(int m) {
  double *p = (double *)calloc(m, sizeof(double));
  for (int i = 0; i < m; i++) p[i] = 0.5 + 0.1 * i;
  return p;
}

__attribute__((noinline)) static double *fresh(int m) { return (double *)malloc(m * sizeof(double)); }

__attribute__((noinline)) static void fill(double *p, int m, double c) {
  for (int i = 0; i < m; i++) p[i] = tanh(c * (1 + i));
}

__attribute__((noinline)) static void fill_odd(double *p, int m, double c) {
  for (int i = 1; i < m; i += 2) p[i] = sin(c) * i;
}

__attribute__((noinline)) static void add_scaled(double *p, const double *q, int m, double c) {
  for (int i = 0; i < m; i++) p[i] += c * q[i];
}

struct vec {
  double *buf;
  int n;
};

__attribute__((noinline)) static void vec_init(struct vec *v, int m) {
  v->buf = (double *)calloc(m, sizeof(double));
  v->n = m;
}

static double from_struct(const double *x) {
  struct vec v;
  vec_init(&v, 4);
  fill(v.buf, v.n, x[0] - x[2]);
  fill_odd(v.buf, v.n, x[1]);
  double r = v.buf[0] * v.buf[1] + v.buf[2] * v.buf[3];
  free(v.buf);
  return r;
}

static double from_zeros(const double *x) {
  double *b = zeros(3);
  fill(b, 3, 1.8 + x[2]);
  double r = b[1] + x[0] * x[1];
  free(b);
  return r;
}

static double from_ramp(const double *x) {
  double *b = ramp(5);
  fill_odd(b, 5, x[0] * x[1]);
  double r = b[0] + b[1] * b[3] + b[4];
  free(b);
  return r;
}

static double from_malloc(const double *x) {
  double *b = fresh(4), *c = ramp(4);
  fill(b, 4, x[1]);
  add_scaled(c, b, 4, x[2]);
  double r = 0;
  for (int i = 0; i < 4; i++) r += c[i] * c[i];
  free(b);
  free(c);
  return r;
}

static void check(const char *name, double (*f)(const double *), const double *dx, double *x) {
  for (int i = 0; i < 3; i++) check_close(name, dx[i], fd_array(f, x, i), 1e-6);
}

int main(void) {
  double x[3] = {-0.485, 0.5861, -0.403}, d0[3] = {0}, d1[3] = {0}, d2[3] = {0}, d3[3] = {0};
  __enzyme_autodiff((void *)from_zeros, x, d0);
  __enzyme_autodiff((void *)from_ramp, x, d1);
  __enzyme_autodiff((void *)from_malloc, x, d2);
  __enzyme_autodiff((void *)from_struct, x, d3);
  check("from_zeros", from_zeros, d0, x);
  check("from_ramp", from_ramp, d1, x);
  check("from_malloc", from_malloc, d2, x);
  check("from_struct", from_struct, d3, x);
  return check_finish();
}
