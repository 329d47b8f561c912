/* Forward mode of an explicit heat-equation stepper: a time loop of parallel sweeps swapping two
 * buffers, then a parallel weighted energy; tangents along a direction of the initial state and
 * of the diffusion coefficient, for the energy and for the final state. */
#include "omp_check.h"

extern double __enzyme_fwddiff(void *, ...);
enum { N = 60, STEPS = 20 };

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

#ifdef XZ_SELFCHECK
static double ref_heat(int n, int steps, double kappa, double dkappa, double *u, double *du, double *tmp, double *dtmp,
                       const double *w) {
  double *a = u, *b = tmp, *da = du, *db = dtmp, dk = XZ_SEED * dkappa;
  for (int i = 0; i < n; i++) du[i] *= XZ_SEED;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? a[i - 1] : 0, r = i < n - 1 ? a[i + 1] : 0;
      double dl = i > 0 ? da[i - 1] : 0, dr = i < n - 1 ? da[i + 1] : 0;
      b[i] = a[i] + kappa * (l - 2 * a[i] + r) - 0.01 * a[i] * a[i] * a[i];
      db[i] = da[i] + dk * (l - 2 * a[i] + r) + kappa * (dl - 2 * da[i] + dr) - 0.03 * a[i] * a[i] * da[i];
    }
    double *s = a, *ds = da;
    a = b, da = db;
    b = s, db = ds;
  }
  double de = 0;
  for (int i = 0; i < n; i++) de += w[i] * 2 * a[i] * da[i];
  return de;
}
#endif

int main(void) {
  static double u0[N], v[N], w[N], u[N], du[N], tmp[N], dtmp[N], up[N], um[N], tp[N], tm[N], want[N];
  double kappa = 0.21, dkappa = 0.7, h = 1e-6;
  for (int i = 0; i < N; i++) {
    u0[i] = u[i] = exp(-0.01 * (i - 25) * (i - 25)) + 0.4 * cos(0.2 * i);
    du[i] = v[i] = xz_dir(i);
    w[i] = 1 + 0.5 * sin(0.1 * i);
  }
  double de = XZ_DIFF(__enzyme_fwddiff((void *)heat, enzyme_const, N, enzyme_const, STEPS, enzyme_dup, kappa, dkappa,
                                       enzyme_dup, u, du, enzyme_dup, tmp, dtmp, enzyme_const, w),
                      ref_heat(N, STEPS, kappa, dkappa, u, du, tmp, dtmp, w));
  for (int i = 0; i < N; i++) up[i] = u0[i] + h * v[i], um[i] = u0[i] - h * v[i];
  double ep = heat(N, STEPS, kappa + h * dkappa, up, tp, w), em = heat(N, STEPS, kappa - h * dkappa, um, tm, w);
  check_one("d energy", de, (ep - em) / (2 * h), 1e-6);
  /* STEPS is even: the final state is in u, the one before it in tmp */
  for (int i = 0; i < N; i++) want[i] = (up[i] - um[i]) / (2 * h);
  check_all("d final state", du, want, N, 1e-6);
  for (int i = 0; i < N; i++) want[i] = (tp[i] - tm[i]) / (2 * h);
  check_all("d state before", dtmp, want, N, 1e-6);
  return check_finish();
}
