/* Call chains three deep, none inlined: outer -> middle -> inner on scalars (each level adds its
 * own arithmetic around the call), a chain where the middle level loops over an array and the
 * innermost reads one element through a pointer, and a float chain whose innermost level
 * writes its result through a pointer. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
typedef struct { double dx, dy; } g2;
extern g2 __enzyme_autodiff_2(void *, ...);
enum { N = 6 };

__attribute__((noinline)) double inner(double x, double y) { return sin(x * y) + x / (1.0 + y * y); }
__attribute__((noinline)) double middle(double x, double y) { return inner(x + y, x * 0.5) * exp(-0.3 * y); }
__attribute__((noinline)) double outer(double x, double y) {
  double a = middle(x, y);
  return a * a + middle(y, a);
}

__attribute__((noinline)) double leaf(const double *p, int i) { return p[i] * p[i + 1] - cos(p[i]); }
__attribute__((noinline)) double sweep(const double *p, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += leaf(p, i) * (1.0 + 0.1 * i);
  return s;
}
__attribute__((noinline)) double top(const double *p, int n, double scale) { return scale * sweep(p, n) + sweep(p, n - 2); }

__attribute__((noinline)) void leaf_f(float a, float b, float *r) { *r = a * b + sqrtf(a * a + b * b); }
__attribute__((noinline)) float mid_f(float a, float b) {
  float r;
  leaf_f(a, b, &r);
  return r * a;
}
__attribute__((noinline)) void top_f(const float *v, float *out) {
  out[0] = mid_f(v[0], v[1]) + mid_f(v[1], v[2]);
  out[1] = mid_f(v[2], out[0]);
}

static double X = 0.6, Y = -0.45;
static double outer_x(double x) { return outer(x, Y); }
static double outer_y(double y) { return outer(X, y); }
static double P[N] = {0.5, 1.25, -0.75, 0.3, 2.0, -1.1};
static double top_p(const double *p) { return top(p, N, 1.7); }
static double top_s(double s) { return top(P, N, s); }

/* Double-precision reference of top_f's weighted outputs. */
static double leaf_d(double a, double b) { return a * b + sqrt(a * a + b * b); }
static double mid_d(double a, double b) { return leaf_d(a, b) * a; }
static double V[3];
static double top_ref(const double *v) {
  double o0 = mid_d(v[0], v[1]) + mid_d(v[1], v[2]);
  double o1 = mid_d(v[2], o0);
  return 0.5 * o0 + 2.0 * o1;
}

int main(void) {
  g2 g = __enzyme_autodiff_2((void *)outer, X, Y);
  check_close("outer d/dx", g.dx, fd1(outer_x, X), 1e-6);
  check_close("outer d/dy", g.dy, fd1(outer_y, Y), 1e-6);
  check_close("outer d/dy (x const)", __enzyme_autodiff((void *)outer, enzyme_const, X, Y), fd1(outer_y, Y), 1e-6);

  double dp[N] = {0};
  double ds = __enzyme_autodiff((void *)top, enzyme_dup, P, dp, enzyme_const, N, 1.7);
  check_close("top d/dscale", ds, fd1(top_s, 1.7), 1e-6);
  for (int i = 0; i < N; i++) check_close("top d/dp", dp[i], fd_array(top_p, P, i), 1e-6);

  float v[3] = {0.7f, -0.4f, 1.3f}, dv[3] = {0}, out[2], dout[2] = {0.5f, 2.0f};
  for (int i = 0; i < 3; i++) V[i] = v[i];
  __enzyme_autodiff_v((void *)top_f, enzyme_dup, v, dv, enzyme_dup, out, dout);
  for (int i = 0; i < 3; i++) check_close("top_f d/dv", dv[i], fd_array(top_ref, V, i), 1e-5);
  check_close("top_f out[1] primal", out[1], mid_d(V[2], mid_d(V[0], V[1]) + mid_d(V[1], V[2])), 1e-5);
  return check_finish();
}
