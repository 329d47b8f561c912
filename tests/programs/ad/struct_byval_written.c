/* Structs passed by value in memory (`byval`) to noinline callees that write to their copy:
 * the caller's struct must keep its value (the derivative reads it again afterwards), in
 * reverse mode and in forward mode, and the copy's adjoint must reach the caller's shadow. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

struct big { double a[4]; int n; };

/* scales its own copy in place, then reads it back through a pointer (so the writes stay) */
__attribute__((noinline)) double sum_sq(const double *v, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += v[i] * v[i];
  return t;
}
__attribute__((noinline)) double consume(struct big b, double s) {
  for (int i = 0; i < b.n; i++) b.a[i] = b.a[i] * s + b.a[(i + 1) % b.n];
  return sum_sq(b.a, b.n);
}

static double f(struct big *p, double s) {
  double r = consume(*p, s);            /* *p must be unchanged by the call ... */
  r += consume(*p, 2 * s) * p->a[1];    /* ... for this call and this read */
  return r + p->a[0] * s;
}

static struct big P = {{0.1, 0.2, -0.3, 0.4}, 4};
static double fs(double s) { return f(&P, s); }

int main(void) {
  double s = 0.7;
  struct big before = P;
  struct big d = {{0}, 0};
  double ds = __enzyme_autodiff((void *)f, enzyme_dup, &P, &d, s);
  check_close("reverse d/ds", ds, fd1(fs, s), 1e-6);
  for (int i = 0; i < 4; i++) {
    double h = 1e-6, save = P.a[i];
    P.a[i] = save + h;
    double up = f(&P, s);
    P.a[i] = save - h;
    double dn = f(&P, s);
    P.a[i] = save;
    check_close("reverse d/da", d.a[i], (up - dn) / (2 * h), 1e-6);
    check_close("primal unchanged", P.a[i], before.a[i], 0);
  }
  struct big t = {{0}, 0};
  double fwd = __enzyme_fwddiff((void *)f, enzyme_dup, &P, &t, s, 1.0);
  check_close("forward d/ds", fwd, fd1(fs, s), 1e-6);
  t.a[2] = 1.0;
  fwd = __enzyme_fwddiff((void *)f, enzyme_dup, &P, &t, s, 0.0);
  check_close("forward d/da2", fwd, d.a[2], 1e-9);
  return check_finish();
}
