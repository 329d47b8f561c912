/* Vector forward mode (enzyme_width 2) through the combiners that need the primal values: a
 * '*' reduction, a max reduction and an atomic multiply into a shared array.  Each thread's
 * copy meets the shared value under one lock, all tangents with it; each direction against
 * central differences of the primal, and the serial reference's closed forms. */
#include "omp_check.h"

typedef struct {
  double d[2];
} D2;
extern D2 __enzyme_fwddiff(void *, ...);
enum { N = 61, M = 4 };

__attribute__((noinline)) double f(int n, const double *x, double *acc) {
  double p = 1, m = -1e300;
#pragma omp parallel for reduction(* : p) reduction(max : m)
  for (int i = 0; i < n; i++) {
    double t = 1.0 + 0.1 * sin(x[i]);
    double q = x[i] * x[(i + 1) % n];
    p *= t;
    m = q > m ? q : m;
#pragma omp atomic
    acc[i % M] *= t;
  }
  return p + 2.0 * m;
}

#ifdef XZ_SELFCHECK
/* Serial tangents: p = prod t_i, m = max_i x_i x_{i+1}, acc[j] *= prod_{i = j mod M} t_i. */
static D2 ref_f(int n, const double *x, const double *v0, const double *v1, double *acc, double *da0, double *da1) {
  const double *v[2] = {v0, v1};
  double *da[2] = {da0, da1};
  double a0[M];
  for (int j = 0; j < M; j++) a0[j] = acc[j];
  double y = f(n, x, acc);
  int k = 0;
  for (int i = 1; i < n; i++)
    if (x[i] * x[(i + 1) % n] > x[k] * x[(k + 1) % n]) k = i;
  double p = 1;
  for (int i = 0; i < n; i++) p *= 1.0 + 0.1 * sin(x[i]);
  (void)y;
  D2 r;
  for (int c = 0; c < 2; c++) {
    double s = 0, sj[M] = {0};
    for (int i = 0; i < n; i++) {
      double dt = XZ_SEED * 0.1 * cos(x[i]) * v[c][i] / (1.0 + 0.1 * sin(x[i]));
      s += dt;
      sj[i % M] += dt;
    }
    int k1 = (k + 1) % n;
    r.d[c] = p * s + 2.0 * XZ_SEED * (v[c][k] * x[k1] + x[k] * v[c][k1]);
    for (int j = 0; j < M; j++) da[c][j] = XZ_SEED * da[c][j] * (acc[j] / a0[j]) + acc[j] * sj[j];
  }
  return r;
}
#endif

int main(void) {
  static double x[N], v[2][N], acc[M], da[2][M], a0[M], w[2][M], xp[N], xm[N], ap[M], am[M], want[M];
  double h = 1e-6;
  for (int i = 0; i < N; i++) {
    x[i] = 1.1 * sin(0.37 * i + 0.2) + 0.05 * i / N;
    for (int c = 0; c < 2; c++) v[c][i] = xz_dir(i + 50 * c);
  }
  for (int j = 0; j < M; j++) {
    a0[j] = acc[j] = 0.8 + 0.1 * j;
    for (int c = 0; c < 2; c++) w[c][j] = da[c][j] = xz_dir(7 * j + 300 * c);
  }
  D2 r = XZ_DIFF(__enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_const, N, enzyme_dup, x, v[0], v[1],
                                  enzyme_dup, acc, da[0], da[1]),
                 ref_f(N, x, v[0], v[1], acc, da[0], da[1]));
  for (int c = 0; c < 2; c++) {
    char name[32];
    for (int i = 0; i < N; i++) xp[i] = x[i] + h * v[c][i], xm[i] = x[i] - h * v[c][i];
    for (int j = 0; j < M; j++) ap[j] = a0[j] + h * w[c][j], am[j] = a0[j] - h * w[c][j];
    double fp = f(N, xp, ap), fm = f(N, xm, am);
    snprintf(name, sizeof name, "df direction %d", c);
    check_one(name, r.d[c], (fp - fm) / (2 * h), 1e-6);
    for (int j = 0; j < M; j++) want[j] = (ap[j] - am[j]) / (2 * h);
    snprintf(name, sizeof name, "dacc direction %d", c);
    check_all(name, da[c], want, M, 1e-6);
  }
  return check_finish();
}
