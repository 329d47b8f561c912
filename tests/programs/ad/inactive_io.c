/* Output calls inside differentiated code have no derivative: printf of active values (in a
 * loop and in a noinline callee), puts, fputs and fprintf to stderr, putchar and fflush.  They
 * must run once, in the forward sweep, and leave the gradient alone: the characters printf
 * reports are counted in a global int and compared with a plain call's count. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 5 };

static int printed;

__attribute__((noinline)) double logged_sq(double v, int i) {
  printed += printf("  [trace] step %d: v = %.6f\n", i, v);
  return v * v;
}

static double f(const double *x, int n, double a) {
  double s = 0;
  puts("  [trace] f starts");
  for (int i = 0; i < n; i++) {
    double t = logged_sq(x[i] * a, i) + sin(x[i]);
    if (t > 1.0) fprintf(stderr, "large term %d: %g\n", i, t);
    s += t;
  }
  putchar(' ');
  putchar('\n');
  fputs("  [trace] f done\n", stderr);
  fflush(stdout);
  return s * a;
}

static float g(const float *x, int n) {
  float p = 1.0f;
  for (int i = 0; i < n; i++) {
    p *= 1.0f + 0.5f * x[i];
    printed += printf("  [trace] partial product %d = %f\n", i, (double)p);
  }
  fprintf(stderr, "product %f of %d factors\n", (double)p, n);
  return p;
}

static double X[N] = {0.4, -1.3, 0.9, 1.6, -0.2};
static double A = 1.2;
static double f_x(const double *x) { return f(x, N, A); }
static double f_a(double a) { return f(X, N, a); }

int main(void) {
  double dx[N] = {0};
  printed = 0;
  f(X, N, A);
  int plain = printed;
  printed = 0;
  double da = __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_const, N, A);
  check_close("characters printed by f's gradient", printed, plain, 0);
  check_close("df/da", da, fd1(f_a, A), 1e-6);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);

  float y[N], dy[N] = {0};
  double prod = 1;
  for (int i = 0; i < N; i++) {
    y[i] = 0.3f * i - 0.5f;
    prod *= 1.0 + 0.5 * y[i];
  }
  printed = 0;
  g(y, N);
  plain = printed;
  printed = 0;
  __enzyme_autodiff_v((void *)g, enzyme_dup, y, dy, enzyme_const, N);
  check_close("characters printed by g's gradient", printed, plain, 0);
  for (int i = 0; i < N; i++) check_close("dg/dy", dy[i], 0.5 * prod / (1.0 + 0.5 * y[i]), 1e-5);
  return check_finish();
}
