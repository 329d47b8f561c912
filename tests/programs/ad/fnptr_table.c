/* Arrays of function pointers selected by an int: a constant global table indexed by op codes
 * read from an int array (one indirect call per element, in a loop), a mutable global table of
 * float functions of two arguments, and a noinline function that returns a function pointer
 * which the caller then calls. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 8 };

typedef double (*unary)(double);
__attribute__((noinline)) double op_sq(double v) { return v * v; }
__attribute__((noinline)) double op_sin(double v) { return sin(v); }
__attribute__((noinline)) double op_exp(double v) { return exp(0.5 * v); }
__attribute__((noinline)) double op_inv(double v) { return 1.0 / (1.0 + v * v); }
static unary const OPS[4] = {op_sq, op_sin, op_exp, op_inv};

static double f(const double *x, const int *code, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += OPS[code[i] & 3](x[i]) * x[(i + 1) % n];
  return s;
}

__attribute__((noinline)) unary choose(int k) { return k > 0 ? op_inv : op_sin; }
static double h(double x, int k) {
  unary u = choose(k), v = choose(-k);
  return u(x) * v(x * x);
}

typedef float (*binary_f)(float, float);
__attribute__((noinline)) float hyp_f(float a, float b) { return sqrtf(a * a + b * b); }
__attribute__((noinline)) float prod_f(float a, float b) { return a * b; }
__attribute__((noinline)) float diff_f(float a, float b) { return a - 2.0f * b; }
static binary_f OPS_F[3] = {hyp_f, prod_f, diff_f};

static void g(const float *x, float *out, int n, int k) {
  for (int i = 0; i + 1 < n; i++) out[i] = OPS_F[(k + i) % 3](x[i], x[i + 1]);
}

static int CODE[N] = {0, 1, 2, 3, 3, 2, 1, 0};
static double X[N] = {0.5, -0.3, 1.2, 0.8, -1.1, 0.4, 0.9, -0.6};
static double f_x(const double *x) { return f(x, CODE, N); }
static int K;
static double h_x(double x) { return h(x, K); }

static int KF;
static double XF[N], SEED[N];
static double g_ref(const double *x) {
  double s = 0;
  for (int i = 0; i + 1 < N; i++) {
    double a = x[i], b = x[i + 1], r;
    switch ((KF + i) % 3) {
    case 0: r = sqrt(a * a + b * b); break;
    case 1: r = a * b; break;
    default: r = a - 2.0 * b; break;
    }
    s += SEED[i] * r;
  }
  return s;
}

int main(void) {
  double dx[N] = {0};
  __enzyme_autodiff_v((void *)f, enzyme_dup, X, dx, enzyme_const, CODE, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);

  for (K = -1; K <= 1; K += 2)
    check_close("dh/dx", __enzyme_autodiff((void *)h, 0.7, enzyme_const, K), fd1(h_x, 0.7), 1e-6);

  for (KF = 0; KF < 3; KF++) {
    float x[N], out[N], dxf[N] = {0}, dout[N];
    for (int i = 0; i < N; i++) {
      XF[i] = x[i] = 0.3f * i - 0.9f;
      SEED[i] = 1.0 + 0.25 * i;
      dout[i] = (float)SEED[i];
    }
    __enzyme_autodiff_v((void *)g, enzyme_dup, x, dxf, enzyme_dupnoneed, out, dout, enzyme_const, N, enzyme_const, KF);
    for (int i = 0; i < N; i++) check_close("dg/dx", dxf[i], fd_array(g_ref, XF, i), 1e-5);
  }
  return check_finish();
}
