/* Structs holding function pointers: a kernel struct {int kind; eval pointer; double width}
 * built inside the differentiated function (its width is active) and passed by pointer to a
 * noinline density estimate, a constant global array of models {name, loss pointer, int size}
 * selected by an int, and a float array of layers {activation pointer, float gain}. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 6 };

struct kernel {
  int kind;
  double (*eval)(double r, double w);
  double width;
};
__attribute__((noinline)) double gauss_k(double r, double w) { return exp(-r * r / (w * w)) / w; }
__attribute__((noinline)) double cauchy_k(double r, double w) { return w / (w * w + r * r); }

__attribute__((noinline)) double density(const struct kernel *k, const double *x, int n, double at) {
  double s = 0;
  for (int i = 0; i < n; i++) s += k->eval(at - x[i], k->width);
  return k->kind == 0 ? s / n : s;
}

static double kde(const double *x, int n, double w, int kind) {
  struct kernel k = {kind, kind == 0 ? gauss_k : cauchy_k, w};
  return density(&k, x, n, 0.3) + density(&k, x, n, -0.2) * w;
}

struct model {
  const char *name;
  double (*loss)(const double *theta, const double *data, int m);
  int size;
};
__attribute__((noinline)) double linear_loss(const double *t, const double *d, int m) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double r = t[0] + t[1] * i - d[i];
    s += r * r;
  }
  return s;
}
__attribute__((noinline)) double quad_loss(const double *t, const double *d, int m) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double r = t[0] + t[1] * i + t[2] * i * i - d[i];
    s += log(1.0 + r * r);
  }
  return s;
}
static const struct model MODELS[2] = {{"linear", linear_loss, 2}, {"quadratic", quad_loss, 3}};

static double fit(const double *theta, const double *data, int m, int which) {
  const struct model *md = &MODELS[which];
  double reg = 0;
  for (int i = 0; i < md->size; i++) reg += theta[i] * theta[i];
  return md->loss(theta, data, m) + 0.1 * reg;
}

struct layer_f {
  float (*act)(float);
  float gain;
};
__attribute__((noinline)) float tanh_f(float v) { return tanhf(v); }
__attribute__((noinline)) float soft_f(float v) { return v / (1.0f + fabsf(v)); }

static float net(const float *gains, const float *x, int n) {
  struct layer_f layers[3] = {{tanh_f, gains[0]}, {soft_f, gains[1]}, {tanh_f, gains[2]}};
  float s = 0;
  for (int i = 0; i < n; i++) {
    float v = x[i];
    for (int l = 0; l < 3; l++) v = layers[l].act(layers[l].gain * v);
    s += v;
  }
  return s;
}

static double X[N] = {0.1, -0.4, 0.7, 0.25, -0.9, 0.5};
static double W = 0.6;
static int KIND;
static double kde_x(const double *x) { return kde(x, N, W, KIND); }
static double kde_w(double w) { return kde(X, N, w, KIND); }

static double DATA[N] = {1.0, 1.4, 2.1, 2.9, 4.2, 5.0};
static double THETA[3] = {0.8, 0.7, 0.05};
static int WHICH;
static double fit_t(const double *t) { return fit(t, DATA, N, WHICH); }

static double G[3], XN[N];
static double net_ref(const double *g) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    double v = XN[i];
    v = tanh(g[0] * v);
    v = g[1] * v / (1.0 + fabs(g[1] * v));
    v = tanh(g[2] * v);
    s += v;
  }
  return s;
}

int main(void) {
  for (KIND = 0; KIND < 2; KIND++) {
    double dx[N] = {0};
    double dw = __enzyme_autodiff((void *)kde, enzyme_dup, X, dx, enzyme_const, N, W, enzyme_const, KIND);
    check_close("kde d/dw", dw, fd1(kde_w, W), 1e-6);
    for (int i = 0; i < N; i++) check_close("kde d/dx", dx[i], fd_array(kde_x, X, i), 1e-6);
  }

  for (WHICH = 0; WHICH < 2; WHICH++) {
    double dt[3] = {0};
    __enzyme_autodiff_v((void *)fit, enzyme_dup, THETA, dt, enzyme_const, DATA, enzyme_const, N, enzyme_const, WHICH);
    for (int i = 0; i < 3; i++) check_close("fit d/dtheta", dt[i], fd_array(fit_t, THETA, i), 1e-6);
  }

  float g[3] = {1.5f, -0.8f, 2.0f}, dg[3] = {0}, x[N];
  for (int i = 0; i < 3; i++) G[i] = g[i];
  for (int i = 0; i < N; i++) XN[i] = x[i] = (float)X[i];
  __enzyme_autodiff_v((void *)net, enzyme_dup, g, dg, enzyme_const, x, enzyme_const, N);
  for (int i = 0; i < 3; i++) check_close("net d/dgain", dg[i], fd_array(net_ref, G, i), 1e-5);
  return check_finish();
}
