/* A void function writing an output array: the seed is the caller's shadow of the output. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 9 };

static void stencil(const double *u, double *out, int n) {
  for (int i = 1; i < n - 1; i++) out[i] = u[i - 1] - 2 * u[i] + u[i + 1] + u[i] * u[i];
  out[0] = u[0];
  out[n - 1] = u[n - 1];
}

static double W[N];
static double weighted(const double *u) {
  double out[N], s = 0;
  stencil(u, out, N);
  for (int i = 0; i < N; i++) s += W[i] * out[i];
  return s;
}

int main(void) {
  double u[N], du[N] = {0}, out[N], dout[N];
  for (int i = 0; i < N; i++) { u[i] = sin(i); W[i] = 1.0 + 0.1 * i; dout[i] = W[i]; }
  __enzyme_autodiff((void *)stencil, enzyme_dup, u, du, enzyme_dup, out, dout, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("d<w,out>/du", du[i], fd_array(weighted, u, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("dout reset", dout[i], 0.0, 0.0);
  return check_finish();
}
