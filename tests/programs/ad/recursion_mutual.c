/* Mutual recursion: two scalar functions calling each other with transformed arguments, a
 * three-function cycle walking an array, and a float continued fraction whose levels alternate
 * between two functions. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 10 };

double pong(double x, double y, int n);
__attribute__((noinline)) double ping(double x, double y, int n) {
  if (n <= 0) return x * y;
  return sin(x) + 0.5 * pong(y, x * 0.8, n - 1);
}
__attribute__((noinline)) double pong(double x, double y, int n) {
  if (n <= 0) return x - y;
  return x * cos(y) + ping(x + 0.1, y * y, n - 1) * 0.7;
}

double stage_b(const double *a, int i, int n);
double stage_c(const double *a, int i, int n);
__attribute__((noinline)) double stage_a(const double *a, int i, int n) {
  if (i >= n) return 0.0;
  return a[i] * a[i] + stage_b(a, i + 1, n);
}
__attribute__((noinline)) double stage_b(const double *a, int i, int n) {
  if (i >= n) return 1.0;
  return exp(0.3 * a[i]) * (1.0 + stage_c(a, i + 1, n));
}
__attribute__((noinline)) double stage_c(const double *a, int i, int n) {
  if (i >= n) return 0.5;
  double r = stage_a(a, i + 1, n);
  return a[i] * r - 0.2 * a[i];
}

float cf_odd(const float *q, int i, int n);
__attribute__((noinline)) float cf_even(const float *q, int i, int n) {
  if (i == n) return 1.0f;
  return q[i] + 1.0f / cf_odd(q, i + 1, n);
}
__attribute__((noinline)) float cf_odd(const float *q, int i, int n) {
  if (i == n) return 2.0f;
  return 2.0f * q[i] + 1.0f / cf_even(q, i + 1, n);
}

typedef struct { double dx, dy; } g2;
extern g2 __enzyme_autodiff_2(void *, ...);

static double X = 0.7, Y = -0.4;
static double ping_x(double x) { return ping(x, Y, 7); }
static double ping_y(double y) { return ping(X, y, 7); }
static double A[N] = {0.2, -0.5, 0.8, 0.1, -0.3, 0.6, 0.4, -0.7, 0.9, 0.05};
static double stage_arr(const double *a) { return stage_a(a, 0, N); }

static double Q[N];
static double cf_odd_d(const double *q, int i);
static double cf_even_d(const double *q, int i) { return i == N ? 1.0 : q[i] + 1.0 / cf_odd_d(q, i + 1); }
static double cf_odd_d(const double *q, int i) { return i == N ? 2.0 : 2.0 * q[i] + 1.0 / cf_even_d(q, i + 1); }
static double cf_ref(const double *q) { return cf_even_d(q, 0); }

int main(void) {
  g2 g = __enzyme_autodiff_2((void *)ping, X, Y, enzyme_const, 7);
  check_close("ping d/dx", g.dx, fd1(ping_x, X), 1e-6);
  check_close("ping d/dy", g.dy, fd1(ping_y, Y), 1e-6);

  double da[N] = {0};
  __enzyme_autodiff_v((void *)stage_a, enzyme_dup, A, da, enzyme_const, 0, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("stage d/da", da[i], fd_array(stage_arr, A, i), 1e-6);

  float q[N], dq[N] = {0};
  for (int i = 0; i < N; i++) Q[i] = q[i] = 1.0f + 0.25f * (i % 4);
  __enzyme_autodiff_v((void *)cf_even, enzyme_dup, q, dq, enzyme_const, 0, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("cf d/dq", dq[i], fd_array(cf_ref, Q, i), 1e-5);
  return check_finish();
}
