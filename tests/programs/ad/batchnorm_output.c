/* Batch normalisation into an output array: mean and variance reductions feed every output
 * (a dense Jacobian), then scale and shift by active gamma and beta. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 16 };

static void batchnorm(const double *x, double *y, const double *gamma, const double *beta, int n) {
  double mean = 0, var = 0;
  for (int i = 0; i < n; i++) mean += x[i];
  mean /= n;
  for (int i = 0; i < n; i++) var += (x[i] - mean) * (x[i] - mean);
  var /= n;
  double inv = 1.0 / sqrt(var + 1e-5);
  for (int i = 0; i < n; i++) y[i] = gamma[0] * (x[i] - mean) * inv + beta[0];
}

static double W[N], G = 1.3, B = -0.2, X[N];
static double obj(const double *x) {
  double y[N], s = 0;
  batchnorm(x, y, &G, &B, N);
  for (int i = 0; i < N; i++) s += W[i] * y[i] * y[i];
  return s;
}
static double obj_params(const double *unused) { (void)unused; return obj(X); }

int main(void) {
  double *x = X, dx[N] = {0}, y[N], dy[N], dg = 0, db = 0;
  for (int i = 0; i < N; i++) { x[i] = sin(0.9 * i) + 0.1 * i; W[i] = 0.5 + 0.05 * i; }
  batchnorm(x, y, &G, &B, N);
  for (int i = 0; i < N; i++) dy[i] = 2 * W[i] * y[i]; /* seed = d obj / d y */
  __enzyme_autodiff((void *)batchnorm, x, dx, y, dy, &G, &dg, &B, &db, N);
  for (int i = 0; i < N; i++) check_close("dobj/dx", dx[i], fd_array(obj, x, i), 1e-6);
  check_close("dobj/dgamma", dg, fd_array(obj_params, &G, 0), 1e-6);
  check_close("dobj/dbeta", db, fd_array(obj_params, &B, 0), 1e-6);
  check_zero("dy", dy, N);
  return check_finish();
}
