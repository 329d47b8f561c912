/* A time loop over two heap buffers swapped every step (explicit heat equation), and the
 * same with the buffers allocated by a helper and the result copied out. */
#include "check.h"
#include <string.h>

extern double __enzyme_autodiff(void *, ...);

static double heat(const double *u0, int n) {
  double *u = malloc(n * sizeof(double));
  double *v = malloc(n * sizeof(double));
  memcpy(u, u0, n * sizeof(double));
  for (int step = 0; step < 20; step++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    for (int i = 1; i < n - 1; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
    double *t = u;
    u = v;
    v = t;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * u[i] * (i + 1);
  free(u);
  free(v);
  return s;
}

__attribute__((noinline)) static double *new_field(int n) { return calloc(n, sizeof(double)); }

static void heat_out(const double *u0, double *out, int n) {
  double *a = new_field(n), *b = new_field(n);
  for (int i = 0; i < n; i++) a[i] = u0[i];
  for (int step = 0; step < 10; step++) {
    for (int i = 0; i < n; i++) b[i] = a[i] + 0.1 * (a[(i + n - 1) % n] - 2 * a[i] + a[(i + 1) % n]) + 0.05 * sin(a[i]);
    double *t = a;
    a = b;
    b = t;
  }
  memcpy(out, a, n * sizeof(double));
  free(a);
  free(b);
}

static double heat_out_sum(const double *u0, int n) {
  double out[8];
  heat_out(u0, out, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * (i + 0.5);
  return s;
}

int main(void) {
  double u0[8] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9, 0.7, 0.1};
  double du[8] = {0};
  __enzyme_autodiff((void *)heat, enzyme_dup, u0, du, enzyme_const, 8);
  for (int i = 0; i < 8; i++) check_close("heat", du[i], fd_array_n(heat, u0, 8, i), 1e-6);

  /* vector-valued: seed the output shadow with weights, read the input adjoint */
  double out[8], dout[8], du2[8] = {0};
  for (int i = 0; i < 8; i++) dout[i] = i + 0.5;
  __enzyme_autodiff((void *)heat_out, enzyme_dup, u0, du2, enzyme_dup, out, dout, enzyme_const, 8);
  for (int i = 0; i < 8; i++) check_close("heat_out", du2[i], fd_array_n(heat_out_sum, u0, 8, i), 1e-6);
  check_zero("dout", dout, 8);
  return check_finish();
}
