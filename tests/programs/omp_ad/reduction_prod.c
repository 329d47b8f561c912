/* reduction(* : p): the adjoint of a product needs the other factors' values; the second
 * function has a factor that is exactly zero, where dividing the product by the factor gives
 * NaN instead of the product of the other factors. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 40 };

__attribute__((noinline)) double prod(int n, const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++) p *= 1 + x[i] * x[i] / 8;
  return p;
}

__attribute__((noinline)) double prod_shift(int n, const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++) p *= x[i] - 0.5;
  return p;
}

/* want[k] = d/dx_k prod_i g(x_i) = g'(x_k) prod_{i != k} g(x_i), by prefix and suffix products. */
static void product_gradient(int n, const double *x, double (*g)(double), double (*dg)(double), double *want,
                             double seed) {
  double pre[N + 1], suf[N + 1];
  pre[0] = suf[n] = 1;
  for (int i = 0; i < n; i++) pre[i + 1] = pre[i] * g(x[i]);
  for (int i = n - 1; i >= 0; i--) suf[i] = suf[i + 1] * g(x[i]);
  for (int k = 0; k < n; k++) want[k] += seed * dg(x[k]) * pre[k] * suf[k + 1];
}
static double g1(double x) { return 1 + x * x / 8; }
static double dg1(double x) { return x / 4; }
static double g2(double x) { return x - 0.5; }
static double dg2(double x) { return 1 + 0 * x; }

static double X[N];
static double loss(void) { return prod(N, X); }
static double loss_shift(void) { return prod_shift(N, X); }

#ifdef XZ_SELFCHECK
static double ref_prod(int n, const double *x, double *dx) {
  product_gradient(n, x, g1, dg1, dx, XZ_SEED);
  return 0;
}
static double ref_prod_shift(int n, const double *x, double *dx) {
  product_gradient(n, x, g2, dg2, dx, XZ_SEED);
  return 0;
}
#endif

int main(void) {
  static double dx[N], dx2[N], want[N];
  for (int i = 0; i < N; i++) X[i] = 1.2 * sin(0.9 * i) + 0.4;
  XZ_DIFF(__enzyme_autodiff((void *)prod, enzyme_const, N, enzyme_dup, X, dx), ref_prod(N, X, dx));
  product_gradient(N, X, g1, dg1, want, 1.0);
  check_all("prod dx", dx, want, N, 1e-12);
  check_fd("prod dx (fd)", dx, X, N, loss, 1e-6);

  /* factors of size 0.8 to 1.2 and alternating sign, and one zero factor */
  for (int i = 0; i < N; i++) X[i] = 0.5 + (i % 2 ? 1 : -1) * (1 + 0.2 * cos(1.3 * i));
  X[5] = 0.5;
  XZ_DIFF(__enzyme_autodiff((void *)prod_shift, enzyme_const, N, enzyme_dup, X, dx2), ref_prod_shift(N, X, dx2));
  for (int i = 0; i < N; i++) want[i] = 0;
  product_gradient(N, X, g2, dg2, want, 1.0);
  check_close("|d prod_shift / dx[5]| > 0.1", fabs(want[5]) > 0.1, 1, 0);
  check_all("prod_shift dx", dx2, want, N, 1e-12);
  check_fd("prod_shift dx (fd)", dx2, X, N, loss_shift, 1e-6);
  return check_finish();
}
