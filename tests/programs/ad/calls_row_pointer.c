/* Callees that return a pointer into an array argument: row(m, i) into a row-major matrix
 * (read and written through by the caller), a pointer to the largest element (the caller
 * scales it in place), and a float gather through an int index table; the returned pointers'
 * shadows must point into the shadows of the arrays. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { R = 4, C = 3, N = 6 };

__attribute__((noinline)) double *row(double *m, int i) { return m + (long)i * C; }

__attribute__((noinline)) double *largest(double *a, int n) {
  double *best = a;
  for (int i = 1; i < n; i++)
    if (a[i] > *best) best = a + i;
  return best;
}

/* m is overwritten: each row is normalised by its length, then the rows are mixed. */
static double rows(double *m, const double *v) {
  for (int i = 0; i < R; i++) {
    double *r = row(m, i), s = 0;
    for (int j = 0; j < C; j++) s += r[j] * r[j];
    double inv = 1.0 / sqrt(s);
    for (int j = 0; j < C; j++) r[j] *= inv;
  }
  double t = 0;
  for (int i = 0; i + 1 < R; i++) {
    const double *a = row(m, i), *b = row(m, i + 1);
    for (int j = 0; j < C; j++) t += a[j] * b[j] * v[j];
  }
  return t;
}

static double peak(double *a, int n) {
  double *p = largest(a, n);
  *p = *p * *p;
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  return s;
}

__attribute__((noinline)) const float *pick(const float *a, const int *idx, int k) { return a + idx[k]; }

static float gather(const float *a, const int *idx, int n) {
  float s = 0;
  for (int k = 0; k < n; k++) {
    const float *p = pick(a, idx, k);
    s += p[0] * p[1];
  }
  return s;
}

static double M0[R * C], V[C] = {0.7, -1.2, 0.4};
static double rows_m(const double *m) {
  double t[R * C];
  for (int i = 0; i < R * C; i++) t[i] = m[i];
  return rows(t, V);
}
static double rows_v(const double *v) {
  double t[R * C];
  for (int i = 0; i < R * C; i++) t[i] = M0[i];
  return rows(t, v);
}
static double A0[N] = {0.5, 1.5, -2.0, 1.75, 0.25, 1.0};
static double peak_a(const double *a) {
  double t[N];
  for (int i = 0; i < N; i++) t[i] = a[i];
  return peak(t, N);
}

int main(void) {
  double m[R * C], dm[R * C] = {0}, dv[C] = {0};
  for (int i = 0; i < R * C; i++) m[i] = M0[i] = sin(1.3 * i + 0.2) + 0.1;
  __enzyme_autodiff_v((void *)rows, enzyme_dup, m, dm, enzyme_dup, V, dv);
  for (int i = 0; i < R * C; i++) check_close("rows d/dm", dm[i], fd_array(rows_m, M0, i), 1e-6);
  for (int j = 0; j < C; j++) check_close("rows d/dv", dv[j], fd_array(rows_v, V, j), 1e-6);

  double a[N], da[N] = {0};
  for (int i = 0; i < N; i++) a[i] = A0[i];
  __enzyme_autodiff_v((void *)peak, enzyme_dup, a, da, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("peak d/da", da[i], fd_array(peak_a, A0, i), 1e-6);
  check_close("peak primal", a[3], 1.75 * 1.75, 0.0);

  float g[N] = {0.5f, -1.0f, 1.5f, 2.0f, -0.5f, 0.25f}, dg[N] = {0};
  int idx[4] = {4, 0, 2, 0};
  __enzyme_autodiff_v((void *)gather, enzyme_dup, g, dg, enzyme_const, idx, enzyme_const, 4);
  /* s = g4 g5 + 2 g0 g1 + g2 g3 */
  float want[N] = {2 * g[1], 2 * g[0], g[3], g[2], g[5], g[4]};
  for (int i = 0; i < N; i++) check_close("gather d/dg", dg[i], want[i], 1e-6);
  return check_finish();
}
