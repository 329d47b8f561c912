/* Values that do not change inside a loop (a scale read from memory, a row's weight read in
 * the inner loop) but whose memory is overwritten after the loop, some read only under a
 * condition, some in a loop left early.  Each must reach the reverse sweep with the value the
 * forward sweep used. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 8, R = 4, C = 6 };

/* The scale is read in every iteration; the loop writes only out (restrict: no alias). */
static void scaled(double *restrict out, const double *restrict x, double *restrict scale, int n) {
  for (int i = 0; i < n; i++) {
    volatile int keep = i; /* a loop LLVM leaves alone */
    (void)keep;
    out[i] = x[i] * x[i] * scale[0] + sin(scale[1] * x[i]);
  }
  scale[0] = scale[1] = 0; /* overwritten after the loop */
}

/* Nested: scale[k] is the same throughout the inner loop but differs between outer iterations. */
static double nested(double *restrict scale, const double *restrict x, int r, int n) {
  double s = 0;
  for (int k = 0; k < r; k++) {
    for (int i = 0; i < n; i++) {
      volatile int keep = i;
      (void)keep;
      s += cos(scale[k] * x[i]) * scale[k];
    }
  }
  for (int k = 0; k < r; k++) scale[k] = 1;
  return s;
}

/* A row weight read inside the inner loop, only for positive entries. */
static double rows(double *w, const double *m, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      double v = m[i * c + j];
      if (v > 0) s += v * v * w[i];
      else s += sin(v) * w[r + i] * w[r + i];
    }
  }
  for (int i = 0; i < 2 * r; i++) w[i] = -w[i];
  return s;
}

/* A loop left early: the threshold is read in every iteration until the break. */
static double early(double *t, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double th = t[0] * t[0];
    if (x[i] > th + 2.0) break;
    s += x[i] * th + exp(-th * x[i]);
  }
  t[0] = 5;
  return s;
}

static double X[N], SC[2], W[2 * R], MM[R * C], T[1];
static double out_sum(const double *x, const double *sc) {
  double o[N], s[2] = {sc[0], sc[1]}, r = 0;
  scaled(o, x, s, N);
  for (int i = 0; i < N; i++) r += o[i] * (1 + 0.1 * i);
  return r;
}
static double fsx(const double *x) { return out_sum(x, SC); }
static double fss(const double *s) { return out_sum(X, s); }
static double fw(const double *w) {
  double a[2 * R];
  for (int i = 0; i < 2 * R; i++) a[i] = w[i];
  return rows(a, MM, R, C);
}
static double fm(const double *m) {
  double a[2 * R];
  for (int i = 0; i < 2 * R; i++) a[i] = W[i];
  return rows(a, m, R, C);
}
static double fnest(const double *w) {
  double a[R];
  for (int k = 0; k < R; k++) a[k] = w[k];
  return nested(a, X, R, N);
}
static double ft(const double *t) {
  double a[1] = {t[0]};
  return early(a, X, N);
}
static double fex(const double *x) {
  double a[1] = {T[0]};
  return early(a, x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, o[N], dout[N], sc[2], dsc[2] = {0};
  for (int i = 0; i < N; i++) X[i] = x[i] = 0.2 + 0.15 * i, dout[i] = 1 + 0.1 * i;
  SC[0] = sc[0] = 1.5, SC[1] = sc[1] = 0.7;
  __enzyme_autodiff((void *)scaled, enzyme_dup, o, dout, enzyme_dup, x, dx, enzyme_dup, sc, dsc, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("scaled/dx", dx[i], fd_array(fsx, X, i), 1e-6);
  for (int k = 0; k < 2; k++) check_close("scaled/dscale", dsc[k], fd_array(fss, SC, k), 1e-6);

  double sk[R], dsk[R] = {0}, dx3[N] = {0};
  for (int k = 0; k < R; k++) sk[k] = W[k] = 0.5 + 0.1 * k;
  __enzyme_autodiff((void *)nested, enzyme_dup, sk, dsk, enzyme_dup, x, dx3, enzyme_const, R, enzyme_const, N);
  for (int k = 0; k < R; k++) check_close("nested/dscale", dsk[k], fd_array(fnest, W, k), 1e-6);

  double w[2 * R], dw[2 * R] = {0}, m[R * C], dm[R * C] = {0};
  for (int i = 0; i < 2 * R; i++) W[i] = w[i] = 0.5 + 0.1 * i;
  for (int i = 0; i < R * C; i++) MM[i] = m[i] = sin(1.1 * i + 0.3);
  __enzyme_autodiff((void *)rows, enzyme_dup, w, dw, enzyme_dup, m, dm, enzyme_const, R, enzyme_const, C);
  for (int i = 0; i < 2 * R; i++) check_close("rows/dw", dw[i], fd_array(fw, W, i), 1e-6);
  for (int i = 0; i < R * C; i++) check_close("rows/dm", dm[i], fd_array(fm, MM, i), 1e-6);

  double t[1] = {1.1}, dt[1] = {0}, dx2[N] = {0};
  T[0] = t[0];
  for (int i = 0; i < N; i++) x[i] = X[i];
  __enzyme_autodiff((void *)early, enzyme_dup, t, dt, enzyme_dup, x, dx2, enzyme_const, N);
  check_close("early/dt", dt[0], fd_array(ft, T, 0), 1e-6);
  for (int i = 0; i < N; i++) check_close("early/dx", dx2[i], fd_array(fex, X, i), 1e-6);
  return check_finish();
}
