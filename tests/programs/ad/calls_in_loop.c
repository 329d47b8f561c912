/* Calls to noinline functions inside loops: a pair potential called from a double loop over
 * int indices, a float activation called per element with long indices, a callee whose result
 * multiplies a running product (its inputs must survive until the reverse sweep), and a call in
 * a while loop whose trip count depends on an active value. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 7 };

__attribute__((noinline)) double pair(double a, double b, double k) {
  double d = a - b;
  return k * d * d / (1.0 + d * d);
}

static double lattice(const double *x, int n, double k) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) e += pair(x[i], x[j], k / (j - i));
  return e;
}

__attribute__((noinline)) float act(float v, float w) { return logf(1.0f + expf(w * v)); }

static void layer(const float *in, float *out, const float *w, long n) {
  for (long i = 0; i < n; i++) out[i] = act(in[i], w[i % 3]) * in[(i + 1) % n];
}

__attribute__((noinline)) double damp(double v, int i) { return 1.0 / (1.0 + 0.1 * i * v * v); }

static double product(const double *x, int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++) p *= damp(x[i], i) * (1.0 + x[i]);
  return p;
}

__attribute__((noinline)) double step(double y, double h) { return y + h * cos(y); }

static double flow(double y0, double h) {
  double y = y0, t = 0;
  while (t < 1.0) {
    y = step(y, h);
    t += h;
  }
  return y;
}

/* References evaluated in double precision for the finite differences. */
static double X[N] = {0.3, -0.7, 1.1, 0.25, -1.4, 0.9, 0.05};
static double K = 1.3;
static double lattice_x(const double *x) { return lattice(x, N, K); }
static double lattice_k(double k) { return lattice(X, N, k); }
static double product_x(const double *x) { return product(x, N); }
static double flow_y0(double y0) { return flow(y0, 0.07); }
static double flow_h(double h) { return flow(0.4, h); }

static double IN[N], W[3], SEED[N];
static double layer_ref(const double *in, const double *w) {
  double s = 0;
  for (int i = 0; i < N; i++) s += SEED[i] * log(1.0 + exp(w[i % 3] * in[i])) * in[(i + 1) % N];
  return s;
}
static double layer_in(const double *in) { return layer_ref(in, W); }
static double layer_w(const double *w) { return layer_ref(IN, w); }

int main(void) {
  double dx[N] = {0};
  double dk = __enzyme_autodiff((void *)lattice, enzyme_dup, X, dx, enzyme_const, N, K);
  check_close("lattice d/dk", dk, fd1(lattice_k, K), 1e-6);
  for (int i = 0; i < N; i++) check_close("lattice d/dx", dx[i], fd_array(lattice_x, X, i), 1e-6);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff_v((void *)product, enzyme_dup, X, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("product d/dx", dx[i], fd_array(product_x, X, i), 1e-6);

  double g = __enzyme_autodiff((void *)flow, 0.4, enzyme_const, 0.07);
  check_close("flow d/dy0", g, fd1(flow_y0, 0.4), 1e-6);
  g = __enzyme_autodiff((void *)flow, enzyme_const, 0.4, 0.07);
  check_close("flow d/dh", g, fd1(flow_h, 0.07), 1e-6);

  float in[N], out[N], w[3] = {0.8f, -1.2f, 0.45f}, din[N] = {0}, dout[N], dw[3] = {0};
  for (int i = 0; i < 3; i++) W[i] = w[i];
  for (int i = 0; i < N; i++) {
    in[i] = (float)(0.2 * i - 0.5);
    IN[i] = in[i];
    SEED[i] = 1.0 + 0.5 * i;
    dout[i] = (float)SEED[i];
  }
  __enzyme_autodiff_v((void *)layer, enzyme_dup, in, din, enzyme_dupnoneed, out, dout, enzyme_dup, w, dw,
                      enzyme_const, (long)N);
  for (int i = 0; i < N; i++) check_close("layer d/din", din[i], fd_array(layer_in, IN, i), 1e-5);
  for (int i = 0; i < 3; i++) check_close("layer d/dw", dw[i], fd_array(layer_w, W, i), 1e-5);
  check_zerof("layer dout", dout, N);
  return check_finish();
}
