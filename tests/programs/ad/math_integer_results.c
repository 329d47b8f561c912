/* libm functions with integer parts: integer results (lround, lrint, llround, llrint, ilogb,
 * the classification macros) carry no derivative; frexp and modf return a float and write
 * another part through a pointer; ldexp, scalbn and scalbln scale by a power of two given as an
 * integer.  double and float forms, the written parts used afterwards. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double mantissas(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int e;
    double m = frexp(x[i], &e);
    s += m * m * (e + 1); /* the exponent is a constant between powers of two */
  }
  return s;
}

static double fractions(const double *x, int n) {
  double s = 0, ip;
  for (int i = 0; i < n; i++) {
    double fr = modf(x[i] * 2.5, &ip); /* ip is overwritten each time: its shadow is cleared */
    s += fr * fr + ip * x[i];
  }
  double whole = x[1]; /* the integral part written over a variable with a derivative */
  double fr = modf(whole * 1.5, &whole);
  return s + fr * whole;
}

static double scaled(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += ldexp(x[i], i - 1) + scalbn(x[i] * x[i], -i) + scalbln(sin(x[i]), 2);
  return s;
}

static double rounded(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    long r = lround(x[i] * 3);
    long long q = llround(x[i]) + llrint(x[i] * 2) + lrint(x[i] - 0.25);
    int lg = ilogb(x[i] * 10);
    s += x[i] * (double)(r + q + lg) + (double)lroundf((float)x[i]) * x[i] * x[i] + ilogbf((float)x[i]);
  }
  if (isnan(x[0]) || isinf(x[1]) || signbit(x[2]) || fpclassify(x[3]) == FP_ZERO) s += x[0];
  return s;
}

/* The float forms, checked against closed forms (float rounding spoils finite differences). */
static double float_forms(const double *x, int n) {
  int e;
  float m = frexpf((float)x[0] * 3.0f, &e);
  float ip;
  float fr = modff((float)x[1] * 1.25f, &ip);
  return (double)m * e + (double)fr * ip + (double)ldexpf((float)x[2], 3) + (double)scalbnf((float)x[3], -2);
}

#define CHECK(f, x, n, tol)                                                           \
  do {                                                                                \
    double dx[8] = {0};                                                               \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                 \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), tol); \
  } while (0)

int main(void) {
  /* points away from the jumps of the integer parts (powers of two, integers, half-integers) */
  double x[4] = {1.37, -0.61, 2.83, 0.45};
  CHECK(mantissas, x, 4, 1e-5);
  CHECK(fractions, x, 4, 1e-5);
  CHECK(scaled, x, 4, 1e-5);
  CHECK(rounded, x, 4, 1e-6);
  double df[4] = {0};
  __enzyme_autodiff((void *)float_forms, enzyme_dup, x, df, enzyme_const, 4);
  int e;
  frexp(x[0] * 3.0, &e);
  double ip;
  modf(x[1] * 1.25, &ip);
  check_close("float_forms frexpf", df[0], 3.0 * ldexp(1.0, -e) * e, 1e-6);
  check_close("float_forms modff", df[1], 1.25 * ip, 1e-6);
  check_close("float_forms ldexpf", df[2], 8.0, 0);
  check_close("float_forms scalbnf", df[3], 0.25, 0);
  return check_finish();
}
