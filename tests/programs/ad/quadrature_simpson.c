/* An integral by composite Simpson's rule of a parametrised integrand over [0, b]: the
 * derivative w.r.t. the parameter (differentiating under the integral) and w.r.t. the upper
 * limit (which moves every node). */
#include "check.h"

typedef struct { double dp, db; } grad2;
extern grad2 __enzyme_autodiff(void *, ...);

static double integrand(double t, double p) { return exp(-p * t * t) * cos(p * t) + t / (1 + p * t); }

static double simpson(double p, double b, int n) {
  double h = b / n, s = integrand(0, p) + integrand(b, p);
  for (int i = 1; i < n; i++) s += (i % 2 ? 4.0 : 2.0) * integrand(i * h, p);
  return s * h / 3;
}

static double P = 0.7, B = 2.3;
static double fp(double p) { return simpson(p, B, 64); }
static double fb(double b) { return simpson(P, b, 64); }

int main(void) {
  grad2 g = __enzyme_autodiff((void *)simpson, P, B, 64);
  check_close("dI/dp", g.dp, fd1(fp, P), 1e-6);
  check_close("dI/db", g.db, fd1(fb, B), 1e-6);
  /* Fundamental theorem: dI/db ~ integrand(b) (up to the quadrature error). */
  check_close("dI/db ~ f(b)", g.db, integrand(B, P), 1e-6);
  return check_finish();
}
