/* Forward mode through C99 complex numbers with clang's default flags: products with their
 * __muldc3 fallback, quotients by __divdc3, <complex.h>'s functions (cexp, clog, csqrt, cpow,
 * trigonometric, hyperbolic and inverse, cabs, carg), float complex as <2 x float>, and a
 * function returning a double complex (its tangent comes back as one). */
#include <complex.h>
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);
extern double complex __enzyme_fwddiff_c(void *, ...) __asm__("__enzyme_fwddiff");
enum { N = 4 };

static double complex chain(const double complex *z, int n, double s) {
  double complex acc = 0.3 - 0.2 * I;
  for (int i = 0; i < n; i++) {
    acc = acc * z[i] / (1.0 + 0.5 * z[i] * z[i]) + 0.2 * cexp(acc * s) - 0.1 * clog(z[i] + s);
    acc += 0.05 * cpow(z[i], 0.5 + s * I) + 0.1 * csqrt(acc + 2.0);
  }
  return acc;
}

static double functions(const double complex *z, int n, double s) {
  (void)n;
  double complex a = z[0], b = z[1], c = z[2] * 0.5;
  double complex r = csin(a) * ccos(b) + ctan(c) - csinh(b) + ccosh(a) / 3.0 + ctanh(c) * s;
  r += casin(c) + cacos(c) + catan(a) + casinh(b) + cacosh(a + 2.0) + catanh(c);
  return creal(r) * 0.7 + cimag(r) + cabs(r) + carg(r * I);
}

static double single(const double complex *z, int n, double s) {
  float complex acc = 0.25f + 0.5f * I;
  for (int i = 0; i < n; i++) {
    float complex w = (float)creal(z[i]) + I * (float)cimag(z[i]);
    acc = acc * w / (2.0f + w) + cexpf(0.3f * w * (float)s) + ccosf(w);
  }
  return (double)(cimagf(acc) + cabsf(acc) - cargf(acc));
}

static double complex Z[N], V[N];
static double S = 0.6, VS = -0.4;

/* central difference of g along (V, VS), with step h */
static double fd_along(double (*g)(const double complex *, int, double), double h) {
  double complex zp[N], zm[N];
  for (int i = 0; i < N; i++) {
    zp[i] = Z[i] + h * V[i];
    zm[i] = Z[i] - h * V[i];
  }
  return (g(zp, N, S + h * VS) - g(zm, N, S - h * VS)) / (2 * h);
}

static double chain_re(const double complex *z, int n, double s) { return creal(chain(z, n, s)); }
static double chain_im(const double complex *z, int n, double s) { return cimag(chain(z, n, s)); }

int main(void) {
  for (int i = 0; i < N; i++) {
    Z[i] = 0.5 + 0.2 * i + I * (0.25 - 0.15 * i);
    V[i] = (i % 2 ? -0.7 : 0.4) + I * (0.3 + 0.1 * i);
  }
  double complex dc = __enzyme_fwddiff_c((void *)chain, Z, V, N, S, VS);
  check_close("chain re", creal(dc), fd_along(chain_re, 1e-6), 1e-6);
  check_close("chain im", cimag(dc), fd_along(chain_im, 1e-6), 1e-6);
  check_close("functions", __enzyme_fwddiff((void *)functions, Z, V, N, S, VS), fd_along(functions, 1e-6), 1e-6);
  check_close("single", __enzyme_fwddiff((void *)single, Z, V, N, S, VS), fd_along(single, 1e-3), 2e-2);
  return check_finish();
}
