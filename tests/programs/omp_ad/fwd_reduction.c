/* Forward mode of reductions: the tangent of a sum reduction, of a max reduction (the tangent
 * of the element that holds the maximum), and of logsumexp (max, then sum, in one region). */
#include "omp_check.h"

extern double __enzyme_fwddiff(void *, ...);
enum { N = 123 };

__attribute__((noinline)) double sumsq(int n, const double *x, const double *w) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] + sin(x[i] * w[i]);
  return s;
}

__attribute__((noinline)) double vmax(int n, const double *x) {
  double m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, x[i] * (1 + 0.01 * i));
  return m;
}

__attribute__((noinline)) double lse(int n, const double *x) {
  double m = -INFINITY, s = 0;
#pragma omp parallel
  {
#pragma omp for reduction(max : m)
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
  }
  return m + log(s);
}

static double X[N], W[N], V[N], VW[N], VL[N];
/* Central differences along (V, VW) */
static double fd_sumsq(void) {
  double h = 1e-6, xp[N], xm[N], wp[N], wm[N];
  for (int i = 0; i < N; i++) xp[i] = X[i] + h * V[i], xm[i] = X[i] - h * V[i], wp[i] = W[i] + h * VW[i], wm[i] = W[i] - h * VW[i];
  return (sumsq(N, xp, wp) - sumsq(N, xm, wm)) / (2 * h);
}
static double fd_x(double (*f)(int, const double *), const double *v) {
  double h = 1e-6, xp[N], xm[N];
  for (int i = 0; i < N; i++) xp[i] = X[i] + h * v[i], xm[i] = X[i] - h * v[i];
  return (f(N, xp) - f(N, xm)) / (2 * h);
}

#ifdef XZ_SELFCHECK
static double ref_sumsq(int n, const double *x, const double *dx, const double *w, const double *dw) {
  double t = 0;
  for (int i = 0; i < n; i++) {
    double c = cos(x[i] * w[i]);
    t += dx[i] * (2 * w[i] * x[i] + c * w[i]) + dw[i] * (x[i] * x[i] + c * x[i]);
  }
  return XZ_SEED * t;
}
static double ref_vmax(int n, const double *x, const double *dx) {
  int k = 0;
  for (int i = 1; i < n; i++)
    if (x[i] * (1 + 0.01 * i) > x[k] * (1 + 0.01 * k)) k = i;
  return XZ_SEED * dx[k] * (1 + 0.01 * k);
}
static double ref_lse(int n, const double *x, const double *dx) {
  double l = lse(n, x), t = 0;
  for (int i = 0; i < n; i++) t += exp(x[i] - l) * dx[i];
  return XZ_SEED * t;
}
#endif

int main(void) {
  for (int i = 0; i < N; i++) {
    X[i] = 2 * sin(0.57 * i) + 0.002 * i;
    W[i] = 1 + 0.25 * cos(0.3 * i);
    V[i] = xz_dir(i);
    VW[i] = xz_dir(i + 1000);
    VL[i] = 1 + 0.5 * xz_dir(i); /* the tangent of lse averages VL over the softmax: about 1 */
  }
  double t = XZ_DIFF(__enzyme_fwddiff((void *)sumsq, enzyme_const, N, enzyme_dup, X, V, enzyme_dup, W, VW), ref_sumsq(N, X, V, W, VW));
  check_one("d sumsq", t, fd_sumsq(), 1e-6);
  t = XZ_DIFF(__enzyme_fwddiff((void *)vmax, enzyme_const, N, enzyme_dup, X, V), ref_vmax(N, X, V));
  check_one("d vmax", t, fd_x(vmax, V), 1e-6);
  t = XZ_DIFF(__enzyme_fwddiff((void *)lse, enzyme_const, N, enzyme_dup, X, VL), ref_lse(N, X, VL));
  check_one("d lse", t, fd_x(lse, VL), 1e-6);
  return check_finish();
}
