/* Calls to functions that are not inlined, from inside a parallel region: a scalar function of
 * two neighbours, and one that writes a rotated pair into a thread-private local array through
 * a pointer; the angle of the rotation is a parameter read by every iteration. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 70 };

__attribute__((noinline)) static double pair(double a, double b) { return a * b / (1 + a * a + b * b); }

__attribute__((noinline)) static void rotate(const double *in, double *out, double t) {
  out[0] = cos(t) * in[0] - sin(t) * in[1];
  out[1] = sin(t) * in[0] + cos(t) * in[1];
}

__attribute__((noinline)) double f(int n, const double *x, const double *theta) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    double in[2] = {x[i], x[(i + 1) % n]}, out[2];
    rotate(in, out, theta[0] * (1 + 0.01 * i));
    s += pair(x[i], x[(i + 3) % n]) + out[0] * out[1] * out[1];
  }
  return s;
}

static double X[N], TH[1] = {0.4};
static double loss(void) { return f(N, X, TH); }

#ifdef XZ_SELFCHECK
static double ref_f(int n, const double *x, double *dx, const double *theta, double *dth) {
  for (int i = 0; i < n; i++) {
    int i1 = (i + 1) % n, i3 = (i + 3) % n;
    double a = x[i], b = x[i3], q = 1 + a * a + b * b, sb = XZ_SEED;
    dx[i] += sb * (b * q - a * b * 2 * a) / (q * q);
    dx[i3] += sb * (a * q - a * b * 2 * b) / (q * q);
    double t = theta[0] * (1 + 0.01 * i), c = cos(t), s = sin(t), p = x[i], r = x[i1];
    double o0 = c * p - s * r, o1 = s * p + c * r;
    double b0 = sb * o1 * o1, b1 = sb * 2 * o0 * o1;
    dx[i] += b0 * c + b1 * s;
    dx[i1] += -b0 * s + b1 * c;
    dth[0] += (b0 * (-s * p - c * r) + b1 * (c * p - s * r)) * (1 + 0.01 * i);
  }
  return 0;
}
#endif

int main(void) {
  static double dx[N];
  double dth[1] = {0};
  for (int i = 0; i < N; i++) X[i] = 1.3 * sin(0.71 * i + 0.4);
  XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, X, dx, enzyme_dup, TH, dth), ref_f(N, X, dx, TH, dth));
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_fd("dtheta", dth, TH, 1, loss, 1e-6);
  return check_finish();
}
