/* Hessian-vector product of a small neural network's loss with respect to its weights (dense
 * layer, tanh, softmax cross-entropy): forward over reverse on matrices and nested loops,
 * checked against second differences of the loss itself. */
#include "fwd.h"

extern void __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

enum { IN = 4, HID = 3, OUT = 2 };

static const double X[IN] = {0.5, -1.0, 0.25, 2.0};

static double loss(const double *w, int label) {
  const double *w1 = w, *w2 = w + IN * HID;
  double h[HID], z[OUT];
  for (int j = 0; j < HID; j++) {
    double a = 0;
    for (int i = 0; i < IN; i++) a += w1[j * IN + i] * X[i];
    h[j] = tanh(a);
  }
  double m = -1e300;
  for (int k = 0; k < OUT; k++) {
    z[k] = 0;
    for (int j = 0; j < HID; j++) z[k] += w2[k * HID + j] * h[j];
    m = z[k] > m ? z[k] : m;
  }
  double se = 0;
  for (int k = 0; k < OUT; k++) se += exp(z[k] - m);
  return log(se) + m - z[label];
}

static double loss1(const double *w, int n) {
  (void)n;
  return loss(w, 1);
}

void grad(const double *w, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, w, g, enzyme_const, 1);
}

int main(void) {
  enum { N = IN * HID + HID * OUT };
  double w[N], v[N], g[N], hv[N], fd[N];
  for (int i = 0; i < N; i++) {
    w[i] = 0.3 * sin(1.7 * i + 0.2);
    v[i] = cos(0.9 * i);
  }
  __enzyme_fwddiff((void *)grad, enzyme_dup, w, v, enzyme_dupnoneed, g, hv, enzyme_const, N);
  fd_hvp(loss1, w, v, N, fd);
  check_array("Hv", hv, fd, N, 1e-5);
  return check_finish();
}
