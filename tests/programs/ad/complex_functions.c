/* C99 complex numbers with clang's default flags: `z * w` is the fast formula with a call of
 * __muldc3 where it gives NaN, `z / w` a call of __divdc3, and the <complex.h> functions are
 * library calls (cexp, clog, csqrt, cpow, the trigonometric and hyperbolic families and their
 * inverses, cabs, carg, cproj) taking a double complex as two doubles and returning
 * {double, double}; float complex travels as <2 x float>.  Gradients with respect to arrays of
 * complex numbers (their real and imaginary parts) and a real scalar, in loops and in
 * straight-line code, and through direct calls of __muldc3/__divdc3. */
#include <complex.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
double complex __muldc3(double, double, double, double);
double complex __divdc3(double, double, double, double);
enum { N = 5 };

/* a recurrence over the array: products, quotients and functions of earlier values */
static double series(const double complex *z, int n, double s) {
  double complex acc = 0.25 + 0.5 * I;
  for (int i = 0; i < n; i++) {
    double complex t = cexp(z[i] * acc * 0.3) + clog(z[i]) / (acc + 2.0);
    acc = acc * (1.0 - 0.2 * s) + 0.4 * csqrt(z[i] * z[i] + s) - 0.1 * cpow(z[i], acc * 0.5);
    acc += 0.05 * t;
  }
  return creal(acc) * cimag(acc) + cabs(acc) + carg(acc) * s;
}

/* every function once, on values that stay inside their principal branches */
static double functions(const double complex *z, int n, double s) {
  (void)n;
  double complex a = z[0], b = z[1], c = z[2] * 0.5;
  double complex r = csin(a) + ccos(b) * ctan(c) + csinh(a) / ccosh(b) + ctanh(c);
  r += casin(c) + cacos(c) * catan(a) + casinh(b) - cacosh(b + 2.0) + catanh(c);
  r += cproj(a * b) + conj(a) * s + cpow(b, s);
  return creal(r) + 0.3 * cimag(r) + cabs(r) + carg(r);
}

/* compiler-rt's product and quotient called directly (clang calls them where the fast
 * formulas give NaN, so they must be differentiable too) */
static double runtime_calls(const double complex *z, int n, double s) {
  double complex p = 1;
  for (int i = 0; i < n; i++) {
    p = __muldc3(creal(p), cimag(p), creal(z[i]), cimag(z[i]) + s);
    p = __divdc3(creal(p), cimag(p), 1.0 + 0.1 * creal(z[i]), 0.2);
  }
  return creal(p) - cimag(p);
}

/* single precision: float complex as <2 x float> */
static double single(const double complex *z, int n, double s) {
  float complex acc = 0.5f;
  for (int i = 0; i < n; i++) {
    float complex w = (float)creal(z[i]) + I * (float)cimag(z[i]);
    acc = acc * w / (1.0f + 0.1f * w * w) + cexpf(0.2f * w) * (float)s + csqrtf(w + 3.0f);
  }
  return (double)(crealf(acc) + cabsf(acc) + cargf(acc));
}

typedef double (*objective)(const double complex *, int, double);
static double complex Z[N];
static double S = 0.7;
static objective current;
static double through(const double *unused) { (void)unused; return current(Z, N, S); }

/* central difference in *v with step h (single precision needs a wider one) */
static double fd_step(double *v, double h) {
  double save = *v;
  *v = save + h;
  double up = through(0);
  *v = save - h;
  double down = through(0);
  *v = save;
  return (up - down) / (2 * h);
}

static void check(const char *name, objective f, const double complex *dz, double ds, double tol) {
  double h = tol > 1e-4 ? 1e-3 : 1e-6;
  current = f;
  char what[64];
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "%s d/dre z[%d]", name, i);
    check_close(what, creal(dz[i]), fd_step((double *)&Z[i], h), tol);
    snprintf(what, sizeof what, "%s d/dim z[%d]", name, i);
    check_close(what, cimag(dz[i]), fd_step((double *)&Z[i] + 1, h), tol);
  }
  snprintf(what, sizeof what, "%s d/ds", name);
  check_close(what, ds, fd_step(&S, h), tol);
}

#define CHECK(f, tol)                                                  \
  do {                                                                 \
    double complex dz[N] = {0};                                        \
    double ds = __enzyme_autodiff((void *)f, Z, dz, N, S);             \
    check(#f, f, dz, ds, tol);                                         \
  } while (0)

int main(void) {
  for (int i = 0; i < N; i++) Z[i] = 0.4 + 0.15 * i + I * (0.3 - 0.1 * i);
  CHECK(series, 1e-6);
  CHECK(functions, 1e-6);
  CHECK(runtime_calls, 1e-6);
  CHECK(single, 2e-2);
  return check_finish();
}
