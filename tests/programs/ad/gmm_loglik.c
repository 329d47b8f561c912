/* Gaussian-mixture log-likelihood of 1-D data: K components with weights (through softmax of
 * logits), means and log standard deviations; log-sum-exp per point. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { K = 3, NPTS = 25 };

static double loglik(const double *alpha, const double *mu, const double *logsig, const double *data, int n) {
  double amax = alpha[0];
  for (int k = 1; k < K; k++) if (alpha[k] > amax) amax = alpha[k];
  double z = 0;
  for (int k = 0; k < K; k++) z += exp(alpha[k] - amax);
  double lz = amax + log(z);
  double total = 0;
  for (int i = 0; i < n; i++) {
    double t[K], m = -1e300;
    for (int k = 0; k < K; k++) {
      double r = (data[i] - mu[k]) * exp(-logsig[k]);
      t[k] = alpha[k] - lz - logsig[k] - 0.5 * r * r - 0.9189385332046727;
      if (t[k] > m) m = t[k];
    }
    double s = 0;
    for (int k = 0; k < K; k++) s += exp(t[k] - m);
    total += m + log(s);
  }
  return total;
}

static double A[K] = {0.2, -0.4, 0.5}, MU[K] = {-1.0, 0.3, 2.0}, LS[K] = {-0.2, 0.1, 0.3}, D[NPTS];
static double fa(const double *p) { return loglik(p, MU, LS, D, NPTS); }
static double fm(const double *p) { return loglik(A, p, LS, D, NPTS); }
static double fl(const double *p) { return loglik(A, MU, p, D, NPTS); }

int main(void) {
  double da[K] = {0}, dm[K] = {0}, dl[K] = {0};
  for (int i = 0; i < NPTS; i++) D[i] = 3.0 * sin(1.9 * i) + 0.2;
  __enzyme_autodiff((void *)loglik, enzyme_dup, A, da, enzyme_dup, MU, dm, enzyme_dup, LS, dl, enzyme_const, D, enzyme_const, NPTS);
  for (int k = 0; k < K; k++) {
    check_close("dL/dalpha", da[k], fd_array(fa, A, k), 1e-6);
    check_close("dL/dmu", dm[k], fd_array(fm, MU, k), 1e-6);
    check_close("dL/dlogsigma", dl[k], fd_array(fl, LS, k), 1e-6);
  }
  return check_finish();
}
