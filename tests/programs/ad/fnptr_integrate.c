/* Function pointers passed as arguments and called indirectly: Simpson's rule over an integrand
 * given as `double (*f)(double, double)` with an active parameter p, the integrand chosen at run
 * time by an int from a local table, a second-level callee receiving the pointer from its
 * caller, and a float integrand passed to a float midpoint rule.  The shadow of each function
 * pointer leads to the integrand's derivative functions. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern float __enzyme_autodiff_f(void *, int, int, float, int, int);

typedef double (*integrand)(double x, double p);

__attribute__((noinline)) double bump(double x, double p) { return exp(-p * x * x); }
__attribute__((noinline)) double lorentz(double x, double p) { return 1.0 / (1.0 + p * x * x); }
__attribute__((noinline)) double wave(double x, double p) { return sin(p * x) * x; }

__attribute__((noinline)) double integrate(integrand f, double p, double a, double b, int n) {
  double h = (b - a) / n, s = f(a, p) + f(b, p);
  for (int i = 1; i < n; i++) s += (i % 2 ? 4.0 : 2.0) * f(a + i * h, p);
  return s * h / 3.0;
}

/* The integrand goes through one more call before it is used. */
__attribute__((noinline)) double moment(integrand f, double p, double b) {
  return integrate(f, p, 0.0, b, 16) * integrate(f, 0.5 * p, -b, b, 12);
}

static double f(double p, double b, int which) {
  integrand table[3] = {bump, lorentz, wave};
  return integrate(table[which], p, 0.0, b, 20) + moment(table[(which + 1) % 3], p * p, b);
}

typedef float (*integrand_f)(float x, float p);
__attribute__((noinline)) float tent_f(float x, float p) { return p * x * (1.0f - x) + x * x * x; }
__attribute__((noinline)) float midpoint_f(integrand_f g, float p, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += g((i + 0.5f) / n, p);
  return s / n;
}
static float g(int which, float p, int n) {
  integrand_f fs[2] = {tent_f, tent_f};
  return midpoint_f(fs[which], p, n) * p;
}

static int WHICH;
static double P = 0.8, B = 1.3;
static double f_p(double p) { return f(p, B, WHICH); }
static double f_b(double b) { return f(P, b, WHICH); }

typedef struct { double dp, db; } g2;
extern g2 __enzyme_autodiff_2(void *, ...);

int main(void) {
  for (WHICH = 0; WHICH < 3; WHICH++) {
    g2 d = __enzyme_autodiff_2((void *)f, P, B, enzyme_const, WHICH);
    check_close("df/dp", d.dp, fd1(f_p, P), 1e-6);
    check_close("df/db", d.db, fd1(f_b, B), 1e-6);
    double dp = __enzyme_autodiff((void *)f, P, enzyme_const, B, enzyme_const, WHICH);
    check_close("df/dp (b const)", dp, fd1(f_p, P), 1e-6);
  }

  const int n = 10;
  float p = 1.75f;
  double m1 = 0, m3 = 0;
  for (int i = 0; i < n; i++) {
    double x = (i + 0.5) / n;
    m1 += x * (1 - x) / n;
    m3 += x * x * x / n;
  }
  for (int which = 0; which < 2; which++)
    check_close("dg/dp", __enzyme_autodiff_f((void *)g, enzyme_const, which, p, enzyme_const, n), 2 * p * m1 + m3, 1e-5);
  return check_finish();
}
