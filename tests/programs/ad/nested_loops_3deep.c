/* Three nested loops with runtime bounds: a bilinear form sum_ijk T[i][j][k] u_i v_j w_k with a
 * nonlinearity at each level, all of T, u, v and w active. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { I = 3, J = 4, K = 5 };

static double f(const double *t, const double *u, const double *v, const double *w, int ni, int nj, int nk) {
  double s = 0;
  for (int i = 0; i < ni; i++) {
    double si = 0;
    for (int j = 0; j < nj; j++) {
      double sj = 0;
      for (int k = 0; k < nk; k++) sj += t[(i * nj + j) * nk + k] * w[k];
      si += tanh(sj) * v[j];
    }
    s += si * si * u[i];
  }
  return s;
}

static double T[I * J * K], U[I], V[J], W[K];
static double ft(const double *t) { return f(t, U, V, W, I, J, K); }
static double fu(const double *u) { return f(T, u, V, W, I, J, K); }
static double fv(const double *v) { return f(T, U, v, W, I, J, K); }
static double fw(const double *w) { return f(T, U, V, w, I, J, K); }

int main(void) {
  double dt[I * J * K] = {0}, du[I] = {0}, dv[J] = {0}, dw[K] = {0};
  for (int i = 0; i < I * J * K; i++) T[i] = sin(1.3 * i);
  for (int i = 0; i < I; i++) U[i] = 0.5 + 0.2 * i;
  for (int j = 0; j < J; j++) V[j] = cos(j);
  for (int k = 0; k < K; k++) W[k] = 0.3 - 0.15 * k;
  __enzyme_autodiff((void *)f, T, dt, U, du, V, dv, W, dw, I, J, K);
  for (int i = 0; i < I * J * K; i += 7) check_close("df/dt", dt[i], fd_array(ft, T, i), 1e-6);
  for (int i = 0; i < I; i++) check_close("df/du", du[i], fd_array(fu, U, i), 1e-6);
  for (int j = 0; j < J; j++) check_close("df/dv", dv[j], fd_array(fv, V, j), 1e-6);
  for (int k = 0; k < K; k++) check_close("df/dw", dw[k], fd_array(fw, W, k), 1e-6);
  return check_finish();
}
