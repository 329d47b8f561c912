/* enzyme_const, enzyme_dup, enzyme_dupnoneed and enzyme_out mixed on functions with many
 * arguments: ten arguments of five kinds (double, int, long, double and float pointers) under
 * four activity patterns, with two, three and four active scalars (derivatives returned in
 * registers or through sret), and a float function of nine arguments through a non-variadic
 * prototype. */
#include "check.h"

enum { N = 4 };
typedef struct { double a, b, c, d; } g4;
typedef struct { double a, c; } g2;
typedef struct { double b, c, d; } g3;
extern g4 __enzyme_autodiff_4(void *, ...);
extern g2 __enzyme_autodiff_2(void *, ...);
extern g3 __enzyme_autodiff_3(void *, ...);
extern double __enzyme_autodiff(void *, ...);

static double model(double a, const double *x, int n, double b, float *fout, const double *w, double c, long m,
                    double *out, double d) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = a * x[i] + b * w[i] * w[i] - c * sin(x[i] * d);
    out[i] = t * t;
    fout[i] = (float)(t * w[(i + m) % n]);
    s += t * x[(i + 1) % n];
  }
  return s * d + m * a * c;
}

static double A = 0.7, Bv = -1.1, Cv = 0.45, D = 1.3;
static double X[N] = {0.5, -0.25, 1.0, 0.75}, W[N] = {1.5, 0.2, -0.6, 0.9};
static const long M = 3;
static double SO[N], SF[N]; /* seeds of out and fout */

/* The scalar seen by the reverse sweep: f + sum SO*out + sum SF*fout (fout in double). */
static double total(double a, const double *x, double b, const double *w, double c, double d) {
  double out[N], s = 0;
  float fout[N];
  s = model(a, x, N, b, fout, w, c, M, out, d);
  for (int i = 0; i < N; i++) {
    double t = a * x[i] + b * w[i] * w[i] - c * sin(x[i] * d);
    s += SO[i] * out[i] + SF[i] * t * w[(i + M) % N];
  }
  return s;
}
static double t_a(double v) { return total(v, X, Bv, W, Cv, D); }
static double t_b(double v) { return total(A, X, v, W, Cv, D); }
static double t_c(double v) { return total(A, X, Bv, W, v, D); }
static double t_d(double v) { return total(A, X, Bv, W, Cv, v); }
static double t_x(const double *x) { return total(A, x, Bv, W, Cv, D); }
static double t_w(const double *w) { return total(A, X, Bv, w, Cv, D); }

static void seeds(double so, double sf, double *dout, float *dfout) {
  for (int i = 0; i < N; i++) {
    SO[i] = so * (i + 1);
    SF[i] = sf * (N - i);
    dout[i] = SO[i];
    dfout[i] = (float)SF[i];
  }
}

typedef struct { float dp, dr; } fg2;
extern fg2 __enzyme_autodiff_f(void *, float, int, float *, float *, int, int, float, int, float, int, float *,
                               float *, long, int, double);
static float fmodel(float p, float *v, int n, float q, float r, float *acc, long k, double scale) {
  float s = 0;
  for (int i = 0; i < n; i++) {
    acc[i] += v[i] * p;
    s += v[i] * v[i] * q + p * r * (float)(i + k);
  }
  return s * (float)scale;
}

int main(void) {
  double out[N], dout[N], dx[N], dw[N];
  float fout[N], dfout[N];

  /* 1: Enzyme's defaults: four active doubles (sret), every pointer duplicated, ints constant. */
  seeds(0.5, 2.0, dout, dfout);
  for (int i = 0; i < N; i++) dx[i] = dw[i] = 0;
  g4 r4 = __enzyme_autodiff_4((void *)model, A, X, dx, N, Bv, fout, dfout, W, dw, Cv, M, out, dout, D);
  check_close("1 d/da", r4.a, fd1(t_a, A), 1e-6);
  check_close("1 d/db", r4.b, fd1(t_b, Bv), 1e-6);
  check_close("1 d/dc", r4.c, fd1(t_c, Cv), 1e-6);
  check_close("1 d/dd", r4.d, fd1(t_d, D), 1e-6);
  for (int i = 0; i < N; i++) check_close("1 d/dx", dx[i], fd_array(t_x, X, i), 1e-6);
  for (int i = 0; i < N; i++) check_close("1 d/dw", dw[i], fd_array(t_w, W, i), 1e-6);
  check_zero("1 dout", dout, N);
  check_zerof("1 dfout", dfout, N);

  /* 2: a and c enzyme_out, b and d enzyme_const, x const, the outputs dupnoneed, w dup. */
  seeds(1.0, 0.0, dout, dfout);
  for (int i = 0; i < N; i++) dw[i] = 0;
  g2 r2 = __enzyme_autodiff_2((void *)model, enzyme_out, A, enzyme_const, X, enzyme_const, N, enzyme_const, Bv,
                              enzyme_dupnoneed, fout, dfout, enzyme_dup, W, dw, enzyme_out, Cv, enzyme_const, M,
                              enzyme_dupnoneed, out, dout, enzyme_const, D);
  check_close("2 d/da", r2.a, fd1(t_a, A), 1e-6);
  check_close("2 d/dc", r2.c, fd1(t_c, Cv), 1e-6);
  for (int i = 0; i < N; i++) check_close("2 d/dw", dw[i], fd_array(t_w, W, i), 1e-6);

  /* 3: three active (b, c, d), a const; x dup, w const; out dup, fout dupnoneed. */
  seeds(0.0, 1.5, dout, dfout);
  for (int i = 0; i < N; i++) dx[i] = 0;
  g3 r3 = __enzyme_autodiff_3((void *)model, enzyme_const, A, enzyme_dup, X, dx, N, Bv, enzyme_dupnoneed, fout, dfout,
                              enzyme_const, W, Cv, M, enzyme_dup, out, dout, enzyme_out, D);
  check_close("3 d/db", r3.b, fd1(t_b, Bv), 1e-6);
  check_close("3 d/dc", r3.c, fd1(t_c, Cv), 1e-6);
  check_close("3 d/dd", r3.d, fd1(t_d, D), 1e-6);
  for (int i = 0; i < N; i++) check_close("3 d/dx", dx[i], fd_array(t_x, X, i), 1e-6);

  /* 4: only d active; the inputs const, the outputs dup and dupnoneed with zero seeds. */
  seeds(0.0, 0.0, dout, dfout);
  double dd = __enzyme_autodiff((void *)model, enzyme_const, A, enzyme_const, X, N, enzyme_const, Bv, enzyme_dupnoneed,
                                fout, dfout, enzyme_const, W, enzyme_const, Cv, M, enzyme_dup, out, dout, D);
  check_close("4 d/dd", dd, fd1(t_d, D), 1e-6);

  /* Float function, nine arguments, through a prototype: p and r active, q const. */
  float v[N] = {0.5f, -1.0f, 0.25f, 2.0f}, dv[N] = {0}, acc[N] = {0}, dacc[N] = {1, 1, 1, 1};
  const float p = 0.8f, q = 1.5f, r = -0.6f;
  fg2 fr = __enzyme_autodiff_f((void *)fmodel, p, enzyme_dup, v, dv, N, enzyme_const, q, enzyme_out, r, enzyme_dup,
                               acc, dacc, 2L, enzyme_const, 0.5);
  double sv = 0, sk = 0;
  for (int i = 0; i < N; i++) {
    sv += v[i];
    sk += i + 2;
  }
  /* d/dp: 0.5 r sk + sum v (from acc seeds 1);  d/dr: 0.5 p sk;  d/dv_i: q v_i + p. */
  check_close("f d/dp", fr.dp, 0.5 * r * sk + sv, 1e-6);
  check_close("f d/dr", fr.dr, 0.5 * p * sk, 1e-6);
  for (int i = 0; i < N; i++) check_close("f d/dv", dv[i], q * v[i] + p, 1e-6);
  return check_finish();
}
