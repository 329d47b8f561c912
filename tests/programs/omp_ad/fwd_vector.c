/* Vector forward mode (enzyme_width 3) of a parallel loop that writes an output array and
 * reduces into the result: three input tangents at once, three output shadows, and the three
 * tangents of the result returned as a struct; each against central differences along its
 * direction. */
#include "omp_check.h"

typedef struct {
  double d[3];
} D3;
extern D3 __enzyme_fwddiff(void *, ...);
enum { N = 75 };

__attribute__((noinline)) double f(int n, const double *x, double *y) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[(i + 1) % n];
    s += sin(y[i]) + 0.1 * x[i] * x[i] * x[i];
  }
  return s;
}

#ifdef XZ_SELFCHECK
static D3 ref_f(int n, const double *x, const double *v0, const double *v1, const double *v2, double *y, double *dy0,
                double *dy1, double *dy2) {
  const double *v[3] = {v0, v1, v2};
  double *dy[3] = {dy0, dy1, dy2};
  D3 r = {{0, 0, 0}};
  f(n, x, y);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++) {
      int j = (i + 1) % n;
      double t = XZ_SEED * (v[k][i] * x[j] + x[i] * v[k][j]);
      dy[k][i] = t;
      r.d[k] += cos(y[i]) * t + XZ_SEED * 0.3 * x[i] * x[i] * v[k][i];
    }
  return r;
}
#endif

int main(void) {
  static double x[N], v[3][N], y[N], dy[3][N], xp[N], xm[N], yp[N], ym[N], want[N];
  double h = 1e-6;
  for (int i = 0; i < N; i++) {
    x[i] = 1.2 * sin(0.39 * i) + 0.3;
    for (int k = 0; k < 3; k++) v[k][i] = xz_dir(i + 100 * k);
  }
  D3 r = XZ_DIFF(__enzyme_fwddiff((void *)f, enzyme_width, 3, enzyme_const, N, enzyme_dup, x, v[0], v[1], v[2],
                                  enzyme_dupnoneed, y, dy[0], dy[1], dy[2]),
                 ref_f(N, x, v[0], v[1], v[2], y, dy[0], dy[1], dy[2]));
  for (int k = 0; k < 3; k++) {
    char name[32];
    for (int i = 0; i < N; i++) xp[i] = x[i] + h * v[k][i], xm[i] = x[i] - h * v[k][i];
    double fp = f(N, xp, yp), fm = f(N, xm, ym);
    snprintf(name, sizeof name, "df direction %d", k);
    check_one(name, r.d[k], (fp - fm) / (2 * h), 1e-6);
    for (int i = 0; i < N; i++) want[i] = (yp[i] - ym[i]) / (2 * h);
    snprintf(name, sizeof name, "dy direction %d", k);
    check_all(name, dy[k], want, N, 1e-6);
  }
  return check_finish();
}
