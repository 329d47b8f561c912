/* A helper not inlined returns one of two pointers, one into an active argument and one into
 * a constant local array (or heap buffer): the pointer it returns has a shadow, so the local's
 * memory needs one too -- zeros -- rather than its own values standing in for its tangents
 * (forward mode read the local's values as tangents; reverse mode added adjoints into it).
 * Both choices of the helper, in both modes, against central differences; and the local must
 * keep its values. */
#include <stdlib.h>

#include "check.h"

extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;
enum { N = 3 };

static __attribute__((noinline)) const double *pick(const double *a, const double *b, double c) {
  return c > 0 ? a : b + 1;
}

static double f(const double *x, double s) {
  double table[5];
  for (int i = 0; i < 5; i++) table[i] = 0.5 * tanh(1.5 + s * i) + 0.25;
  const double *q = pick(x, table, s - 0.3);
  double *heap = malloc(4 * sizeof(double));
  for (int i = 0; i < 4; i++) heap[i] = cos(s + i);
  const double *r = pick(heap, x, 0.2 - s);
  double out = x[0] + erf(q[0] * q[1]) + sin(r[0] * r[1]) + table[2] * x[2];
  free(heap);
  return out;
}

int main(void) {
  for (double s = -0.2; s < 0.8; s += 0.6) { /* each helper call takes each of its two pointers */
    double x[N] = {0.3, 0.7, -0.4}, dx[N] = {0}, v[N] = {0.6, -0.3, 0.9}, up[N], down[N];
    const double h = 1e-6;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, s);
    for (int i = 0; i < N; i++) {
      char name[48];
      snprintf(name, sizeof name, "s=%g reverse d/dx[%d]", s, i);
      double xp[N] = {x[0], x[1], x[2]}, xm[N] = {x[0], x[1], x[2]};
      xp[i] += h;
      xm[i] -= h;
      check_close(name, dx[i], (f(xp, s) - f(xm, s)) / (2 * h), 1e-6);
      up[i] = x[i] + h * v[i];
      down[i] = x[i] - h * v[i];
    }
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, s);
    check_close("forward along v", t, (f(up, s) - f(down, s)) / (2 * h), 1e-6);
  }
  return check_finish();
}
