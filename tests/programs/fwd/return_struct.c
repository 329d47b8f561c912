/* A function returning a struct of two doubles (in registers): the tangent is such a struct. */
#include "fwd.h"

typedef struct {
  double re, im;
} Complex;

extern Complex __enzyme_fwddiff(void *, ...);

Complex cexp_pow(double a, double b, int k) {
  Complex z = {exp(a) * cos(b), exp(a) * sin(b)};
  Complex r = {1, 0};
  for (int i = 0; i < k; i++) {
    Complex t = {r.re * z.re - r.im * z.im, r.re * z.im + r.im * z.re};
    r = t;
  }
  return r;
}

int main(void) {
  double a = 0.3, b = 0.7, h = 1e-6;
  Complex d = __enzyme_fwddiff((void *)cexp_pow, a, 1.0, b, 0.0, 3);
  Complex p = cexp_pow(a + h, b, 3), m = cexp_pow(a - h, b, 3);
  check_close("d re/da", d.re, (p.re - m.re) / (2 * h), 1e-6);
  check_close("d im/da", d.im, (p.im - m.im) / (2 * h), 1e-6);
  d = __enzyme_fwddiff((void *)cexp_pow, a, 0.0, b, 1.0, 3);
  p = cexp_pow(a, b + h, 3), m = cexp_pow(a, b - h, 3);
  check_close("d re/db", d.re, (p.re - m.re) / (2 * h), 1e-6);
  check_close("d im/db", d.im, (p.im - m.im) / (2 * h), 1e-6);
  return check_finish();
}
