// CFLAGS: -fno-exceptions
// C++ std::complex<double> and <float>: libstdc++'s operators and functions reach the C99
// functions and compiler-rt's product and quotient (std::exp -> cexp, std::abs -> cabs,
// z * w -> the fast formula with __muldc3 behind it, z / w -> __divdc3), inline member
// functions and templates: an impedance of a ladder network over frequencies, a polynomial's
// value by Horner's rule, and single precision.
#include <complex>
#include "check.h"

extern "C" double __enzyme_autodiff(void *, ...);
using cd = std::complex<double>;
using cf = std::complex<float>;

template <typename T>
static std::complex<T> horner(const std::complex<T> *c, int n, std::complex<T> z) {
  std::complex<T> p = c[n - 1];
  for (int k = n - 2; k >= 0; k--) p = p * z + c[k];
  return p;
}

/* |Z(w)| and arg Z(w) of a ladder of n sections (R in series, L and C in parallel), summed
 * over frequencies: p holds R, L, C per section */
static double ladder(const double *p, int n) {
  double total = 0;
  for (int f = 1; f <= 4; f++) {
    double w = 0.5 * f;
    cd z(0.0, 0.0);
    for (int i = n - 1; i >= 0; i--) {
      cd parallel = 1.0 / (1.0 / cd(0.0, w * p[3 * i + 1]) + cd(0.0, w * p[3 * i + 2]));
      z = p[3 * i] + 1.0 / (1.0 / parallel + 1.0 / (z + 1.0));
    }
    total += std::abs(z) + 0.5 * std::arg(z) + std::norm(std::exp(z * cd(0.0, 0.1)));
  }
  return total;
}

static double poly(const double *p, int n) {
  cd c[4] = {cd(p[0], p[1]), cd(p[2], p[3]), cd(p[4], p[5]), cd(p[6], p[7])};
  cd z(p[8], 0.3);
  cd v = horner(c, 4, z) + std::sqrt(z + 2.0) * std::log(z + 1.5) - std::pow(z, cd(1.5, 0.2));
  (void)n;
  return v.real() * v.imag() + std::abs(std::sin(v) / (std::cosh(z) + 1.0));
}

static double single(const double *p, int n) {
  cf c[3] = {cf((float)p[0], (float)p[1]), cf((float)p[2], 0.5f), cf(0.25f, (float)p[3])};
  cf z((float)p[4], (float)p[5]);
  cf v = horner(c, 3, z) * std::exp(z * 0.5f) / (z + 2.0f);
  (void)n;
  return (double)(std::abs(v) + v.imag());
}

static double current_n;
static double (*current)(const double *, int);
static double through(const double *p) { return current(p, (int)current_n); }

/* central difference with step h */
static double fd_step(double *p, int i, double h) {
  double save = p[i];
  p[i] = save + h;
  double up = through(p);
  p[i] = save - h;
  double down = through(p);
  p[i] = save;
  return (up - down) / (2 * h);
}

static void check(const char *name, double (*f)(const double *, int), double *p, const double *dp, int n, int len,
                  double tol) {
  current = f;
  current_n = n;
  char what[64];
  for (int i = 0; i < len; i++) {
    snprintf(what, sizeof what, "%s d/dp[%d]", name, i);
    check_close(what, dp[i], fd_step(p, i, tol > 1e-4 ? 1e-3 : 1e-6), tol);
  }
}

int main() {
  double lp[9] = {1.0, 0.5, 0.8, 0.7, 1.2, 0.3, 0.4, 0.9, 1.1}, dl[9] = {0};
  __enzyme_autodiff((void *)ladder, lp, dl, 3);
  check("ladder", ladder, lp, dl, 3, 9, 1e-6);
  double pp[9] = {0.5, -0.2, 0.3, 0.4, -0.6, 0.1, 0.2, 0.25, 0.7}, dpp[9] = {0};
  __enzyme_autodiff((void *)poly, pp, dpp, 0);
  check("poly", poly, pp, dpp, 0, 9, 1e-6);
  double sp[6] = {0.5, -0.3, 0.8, 0.2, 0.4, 0.3}, dsp[6] = {0};
  __enzyme_autodiff((void *)single, sp, dsp, 0);
  check("single", single, sp, dsp, 0, 6, 2e-2);
  return check_finish();
}
