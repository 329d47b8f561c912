/* libm functions beyond the elementary ones: lgamma and tgamma (their derivatives need the
 * digamma function, which libm lacks: checked against exact values psi(1) = -gamma and
 * psi(1/2) = -gamma - 2 log 2, and by finite differences over the whole line, negative
 * non-integers included), remainder, fdim, nextafter, logb, and GNU's sincos (results written
 * through pointers, into locals and into arrays); in double and float. */
#define _GNU_SOURCE
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern float __enzyme_autodiff_f(void *, float) __asm__("__enzyme_autodiff");

static double lg(double x) { return lgamma(x); }
static double tg(double x) { return tgamma(x); }
static double mixed(double x) {
  return remainder(7.0 * x, 1.3) * x + fdim(x, 0.4) * 2.0 - fdim(0.9, x) + nextafter(x, 10.0) * x +
         logb(x * 100.0) * x + lgamma(x * x + 0.5) * tgamma(x + 1.5);
}
static double remainder_by(double y) { return remainder(5.3, y); }
static double rotate(const double *x) {
  double s, c, sa[3], ca[3], acc = 0;
  sincos(x[0] * x[1], &s, &c);
  for (int i = 0; i < 3; i++) sincos(x[i] + s, &sa[i], &ca[i]);
  for (int i = 0; i < 3; i++) acc += sa[i] * ca[(i + 1) % 3] * c;
  return acc + s * c;
}
static float lgf(float x) {
  float s, c;
  sincosf(x * 2.0f, &s, &c);
  return lgammaf(x) + tgammaf(x * 0.5f + 1.0f) + s * c;
}
static double lgf_d(double x) { return (double)lgf((float)x); }

int main(void) {
  const double euler = 0.57721566490153286;
  check_close("lgamma'(1) = -gamma", __enzyme_autodiff((void *)lg, 1.0), -euler, 1e-13);
  check_close("lgamma'(1/2)", __enzyme_autodiff((void *)lg, 0.5), -euler - 2 * log(2.0), 1e-13);
  check_close("tgamma'(1) = -gamma", __enzyme_autodiff((void *)tg, 1.0), -euler, 1e-13);
  double xs[] = {1e-3, 0.37, 0.5, 1.7, 3.2, 9.9, 25.5, 171.3, -0.3, -1.45, -7.61};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    char what[48];
    snprintf(what, sizeof what, "lgamma'(%g)", xs[i]);
    check_close(what, __enzyme_autodiff((void *)lg, xs[i]), fd1(lg, xs[i]), 1e-6);
    if (xs[i] < 100 && fabs(xs[i]) > 0.01) { /* (near 0, Gamma ~ 1/x: the difference's own error is 1e-6) */
      snprintf(what, sizeof what, "tgamma'(%g)", xs[i]);
      check_close(what, __enzyme_autodiff((void *)tg, xs[i]), fd1(tg, xs[i]), 1e-6);
    }
  }
  double ms[] = {0.37, 0.62, 1.05, 1.9};
  for (int i = 0; i < 4; i++) check_close("mixed", __enzyme_autodiff((void *)mixed, ms[i]), fd1(mixed, ms[i]), 1e-6);
  check_close("remainder in its divisor", __enzyme_autodiff((void *)remainder_by, 1.7), fd1(remainder_by, 1.7), 1e-6);
  double r[3] = {0.4, -1.1, 0.7}, dr[3] = {0};
  __enzyme_autodiff((void *)rotate, r, dr);
  for (int i = 0; i < 3; i++) check_close("sincos", dr[i], fd_array(rotate, r, i), 1e-6);
  /* single precision: a wider step */
  double x = 1.3, h = 1e-3;
  check_close("lgammaf, tgammaf, sincosf", (double)__enzyme_autodiff_f((void *)lgf, (float)x),
              (lgf_d(x + h) - lgf_d(x - h)) / (2 * h), 1e-3);
  return check_finish();
}
