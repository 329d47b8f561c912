/* A buffer grown with realloc while it fills (a dynamic array's push), then reduced; and a
 * buffer shrunk with realloc before its last use.  The adjoints of what the old buffer held
 * come back through each move. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

typedef struct {
  double *data;
  long size, capacity;
} vec;

static void push(vec *v, double value) {
  if (v->size == v->capacity) {
    v->capacity = v->capacity ? 2 * v->capacity : 1;
    v->data = realloc(v->data, v->capacity * sizeof(double));
  }
  v->data[v->size++] = value;
}

static double grow(const double *x, int n) {
  vec v = {NULL, 0, 0};
  for (int i = 0; i < n; i++) {
    push(&v, x[i] * x[i]);
    push(&v, sin(x[i]));
  }
  double s = 0;
  for (long i = 0; i < v.size; i++) s += v.data[i] * v.data[v.size - 1 - i];
  free(v.data);
  return s;
}

static double shrink(const double *x, int n) {
  double *t = malloc(2 * n * sizeof(double));
  for (int i = 0; i < 2 * n; i++) t[i] = exp(0.1 * x[i % n] * (i + 1));
  t = realloc(t, n * sizeof(double)); /* keeps the first n */
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  free(t);
  return s;
}

static double grow_by_chunks(const double *x, int n) {
  int cap = 2, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < n; i++) {
      if (len == cap) {
        cap += 3;
        buf = realloc(buf, cap * sizeof(double));
      }
      buf[len++] = x[i] * (r + 1) + (len > 1 ? 0.5 * buf[len - 2] : 0.0);
    }
  double s = 0;
  for (int i = 0; i < len; i++) s += tanh(buf[i]);
  free(buf);
  return s;
}

/* __enzyme_autodiff needs the function itself (a constant), hence a macro. */
#define CHECK(f, x, n)                                                        \
  do {                                                                        \
    double dx[8] = {0};                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);         \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), 1e-6); \
  } while (0)

int main(void) {
  double x[6] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9};
  CHECK(grow, x, 6);
  CHECK(shrink, x, 6);
  CHECK(grow_by_chunks, x, 6);
  return check_finish();
}
