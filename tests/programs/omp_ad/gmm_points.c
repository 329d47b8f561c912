/* A Gaussian-mixture log-likelihood, parallel over points with reduction(+): per point a
 * log-sum-exp over K diagonal components in D dimensions, in thread-private local arrays; the
 * parameters (weights as logits, means, log standard deviations) are read by every point, so
 * their adjoints gather from every thread.  The data are enzyme_const. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { K = 3, D = 2, NPTS = 60 };

__attribute__((noinline)) double loglik(int n, const double *alpha, const double *mu, const double *logsig, const double *data) {
  double amax = alpha[0];
  for (int k = 1; k < K; k++)
    if (alpha[k] > amax) amax = alpha[k];
  double z = 0;
  for (int k = 0; k < K; k++) z += exp(alpha[k] - amax);
  double lz = amax + log(z), total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; i++) {
    double t[K], m = -1e300;
    for (int k = 0; k < K; k++) {
      double q = 0;
      for (int d = 0; d < D; d++) {
        double r = (data[i * D + d] - mu[k * D + d]) * exp(-logsig[k * D + d]);
        q += 0.5 * r * r + logsig[k * D + d];
      }
      t[k] = alpha[k] - lz - q;
      if (t[k] > m) m = t[k];
    }
    double s = 0;
    for (int k = 0; k < K; k++) s += exp(t[k] - m);
    total += m + log(s);
  }
  return total;
}

static double ALPHA[K] = {0.2, -0.4, 0.5}, MU[K * D] = {-1.0, 0.5, 0.3, -0.8, 2.0, 1.1},
              LS[K * D] = {-0.2, 0.1, 0.3, -0.1, 0.05, 0.2}, DATA[NPTS * D];
static double loss(void) { return loglik(NPTS, ALPHA, MU, LS, DATA); }

#ifdef XZ_SELFCHECK
static double ref_loglik(int n, const double *alpha, double *dalpha, const double *mu, double *dmu, const double *logsig,
                         double *dls, const double *data) {
  double amax = alpha[0], z = 0, sm[K], dlz = 0;
  for (int k = 1; k < K; k++)
    if (alpha[k] > amax) amax = alpha[k];
  for (int k = 0; k < K; k++) z += exp(alpha[k] - amax);
  double lz = amax + log(z);
  for (int k = 0; k < K; k++) sm[k] = exp(alpha[k] - lz);
  for (int i = 0; i < n; i++) {
    double t[K], m = -1e300, s = 0;
    for (int k = 0; k < K; k++) {
      double q = 0;
      for (int d = 0; d < D; d++) {
        double r = (data[i * D + d] - mu[k * D + d]) * exp(-logsig[k * D + d]);
        q += 0.5 * r * r + logsig[k * D + d];
      }
      t[k] = alpha[k] - lz - q;
      if (t[k] > m) m = t[k];
    }
    for (int k = 0; k < K; k++) s += exp(t[k] - m);
    for (int k = 0; k < K; k++) {
      double tb = XZ_SEED * exp(t[k] - m) / s; /* responsibility */
      dalpha[k] += tb;
      dlz -= tb;
      for (int d = 0; d < D; d++) {
        double e = exp(-logsig[k * D + d]), r = (data[i * D + d] - mu[k * D + d]) * e;
        dmu[k * D + d] += tb * r * e;
        dls[k * D + d] += tb * (r * r - 1);
      }
    }
  }
  for (int k = 0; k < K; k++) dalpha[k] += dlz * sm[k];
  return 0;
}
#endif

int main(void) {
  double dalpha[K] = {0}, dmu[K * D] = {0}, dls[K * D] = {0}, data0[NPTS * D];
  for (int i = 0; i < NPTS * D; i++) data0[i] = DATA[i] = 2.5 * sin(1.9 * i) + 0.3 * (i % D);
  XZ_DIFF(__enzyme_autodiff((void *)loglik, enzyme_const, NPTS, enzyme_dup, ALPHA, dalpha, enzyme_dup, MU, dmu, enzyme_dup, LS,
                            dls, enzyme_const, DATA),
          ref_loglik(NPTS, ALPHA, dalpha, MU, dmu, LS, dls, DATA));
  check_fd("dalpha", dalpha, ALPHA, K, loss, 1e-6);
  check_fd("dmu", dmu, MU, K * D, loss, 1e-6);
  check_fd("dlogsig", dls, LS, K * D, loss, 1e-6);
  check_same("data", DATA, data0, sizeof data0);
  return check_finish();
}
