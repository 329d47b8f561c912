/* An explicit heat-equation stepper: a time loop of parallel sweeps (one region per step) over a
 * 1-D rod with fixed ends, swapping two buffers, then a parallel weighted energy.  The
 * derivative is taken with respect to the initial temperatures (overwritten in place) and the
 * diffusion coefficient (enzyme_out). */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 64, STEPS = 25 };

__attribute__((noinline)) double heat(int n, int steps, double kappa, double *u, double *tmp, const double *w) {
  double *a = u, *b = tmp;
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? a[i - 1] : 0, r = i < n - 1 ? a[i + 1] : 0;
      b[i] = a[i] + kappa * (l - 2 * a[i] + r) - 0.01 * a[i] * a[i] * a[i];
    }
    double *s = a;
    a = b;
    b = s;
  }
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++) e += w[i] * a[i] * a[i];
  return e;
}

static double U0[N], W[N], KAPPA = 0.23;
static double loss(void) {
  double u[N], tmp[N];
  memcpy(u, U0, sizeof u);
  return heat(N, STEPS, KAPPA, u, tmp, W);
}

#ifdef XZ_SELFCHECK
static double ref_heat(int n, int steps, double kappa, double *u, double *du, double *tmp, double *dtmp, const double *w) {
  static double hist[STEPS + 1][N];
  memcpy(hist[0], u, sizeof(double) * n);
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++) {
      const double *a = hist[t];
      double l = i > 0 ? a[i - 1] : 0, r = i < n - 1 ? a[i + 1] : 0;
      hist[t + 1][i] = a[i] + kappa * (l - 2 * a[i] + r) - 0.01 * a[i] * a[i] * a[i];
    }
  heat(n, steps, kappa, u, tmp, w);
  /* after an odd number of steps the last state is in tmp, the one before it in u; both are
     overwritten, so their shadows end at zero and du receives the gradient */
  double *dlast = steps % 2 ? dtmp : du, g[N], h[N], dk = 0;
  for (int i = 0; i < n; i++) g[i] = dlast[i] + XZ_SEED * 2 * w[i] * hist[steps][i];
  for (int t = steps - 1; t >= 0; t--) {
    const double *a = hist[t];
    for (int i = 0; i < n; i++) h[i] = 0;
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? a[i - 1] : 0, r = i < n - 1 ? a[i + 1] : 0;
      h[i] += g[i] * (1 - 2 * kappa - 0.03 * a[i] * a[i]);
      if (i > 0) h[i - 1] += g[i] * kappa;
      if (i < n - 1) h[i + 1] += g[i] * kappa;
      dk += g[i] * (l - 2 * a[i] + r);
    }
    memcpy(g, h, sizeof g);
  }
  for (int i = 0; i < n; i++) du[i] = g[i], dtmp[i] = 0;
  return dk;
}
#endif

int main(void) {
  static double u[N], du[N], tmp[N], dtmp[N];
  for (int i = 0; i < N; i++) {
    U0[i] = u[i] = exp(-0.01 * (i - 20) * (i - 20)) + 0.5 * sin(0.3 * i);
    W[i] = 1 + 0.5 * cos(0.15 * i);
  }
  double dk = XZ_DIFF(__enzyme_autodiff((void *)heat, enzyme_const, N, enzyme_const, STEPS, enzyme_out, KAPPA, enzyme_dup,
                                        u, du, enzyme_dup, tmp, dtmp, enzyme_const, W),
                      ref_heat(N, STEPS, KAPPA, u, du, tmp, dtmp, W));
  check_one("dkappa", dk, fd_at(loss, &KAPPA), 1e-6);
  check_fd("du0", du, U0, N, loss, 1e-6);
  check_zero("dtmp", dtmp, N);
  return check_finish();
}
