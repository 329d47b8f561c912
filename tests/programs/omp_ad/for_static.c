/* `parallel for` with the default static schedule: each iteration writes its own output element
 * from its own inputs, and a scalar shared by every iteration, passed by value and active
 * (enzyme_out): its adjoint sums over all iterations of all threads. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 101 };

__attribute__((noinline)) void f(int n, double a, const double *x, const double *w, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = a * sin(x[i]) * w[i] + x[i] * x[i] / (1 + a * a);
}

static double X[N], W[N], C[N], A = 0.7;

static double loss(void) { /* sum_i c_i y_i */
  double y[N], s = 0;
  f(N, A, X, W, y);
  for (int i = 0; i < N; i++) s += C[i] * y[i];
  return s;
}

#ifdef XZ_SELFCHECK
static double ref_f(int n, double a, const double *x, double *dx, const double *w, double *dw, double *y, double *dy) {
  double da = 0, q = 1 + a * a;
  for (int i = 0; i < n; i++) {
    double yb = XZ_SEED * dy[i];
    y[i] = a * sin(x[i]) * w[i] + x[i] * x[i] / q;
    dx[i] += yb * (a * cos(x[i]) * w[i] + 2 * x[i] / q);
    dw[i] += yb * a * sin(x[i]);
    da += yb * (sin(x[i]) * w[i] - x[i] * x[i] * 2 * a / (q * q));
    dy[i] = 0;
  }
  return da;
}
#endif

int main(void) {
  static double dx[N], dw[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    X[i] = 1.5 * sin(0.37 * i + 0.2);
    W[i] = 0.5 + (i % 7) * 0.25;
    C[i] = cos(0.11 * i) + 0.1;
    dy[i] = C[i];
  }
  double da = XZ_DIFF(__enzyme_autodiff((void *)f, enzyme_const, N, enzyme_out, A, enzyme_dup, X, dx, enzyme_dup, W, dw,
                                        enzyme_dup, y, dy),
                      ref_f(N, A, X, dx, W, dw, y, dy));
  check_fd("dx", dx, X, N, loss, 1e-6);
  check_fd("dw", dw, W, N, loss, 1e-6);
  check_one("da", da, fd_at(loss, &A), 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
