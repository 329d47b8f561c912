/* A small neural-network loss: dense layer (W x + b), tanh, a second dense layer, then softmax
 * cross-entropy against a label; gradients w.r.t. both weight matrices and biases. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { IN = 6, HID = 5, OUT = 4 };

static double loss(const double *w1, const double *b1, const double *w2, const double *b2, const double *x, int label) {
  double h[HID], z[OUT];
  for (int j = 0; j < HID; j++) {
    double s = b1[j];
    for (int i = 0; i < IN; i++) s += w1[j * IN + i] * x[i];
    h[j] = tanh(s);
  }
  double m = -1e300;
  for (int k = 0; k < OUT; k++) {
    double s = b2[k];
    for (int j = 0; j < HID; j++) s += w2[k * HID + j] * h[j];
    z[k] = s;
    if (s > m) m = s;
  }
  double se = 0;
  for (int k = 0; k < OUT; k++) se += exp(z[k] - m);
  return -(z[label] - m - log(se));
}

static double W1[HID * IN], B1[HID], W2[OUT * HID], B2[OUT], X[IN];
static double fw1(const double *p) { return loss(p, B1, W2, B2, X, 2); }
static double fb1(const double *p) { return loss(W1, p, W2, B2, X, 2); }
static double fw2(const double *p) { return loss(W1, B1, p, B2, X, 2); }
static double fb2(const double *p) { return loss(W1, B1, W2, p, X, 2); }

int main(void) {
  double dw1[HID * IN] = {0}, db1[HID] = {0}, dw2[OUT * HID] = {0}, db2[OUT] = {0};
  for (int i = 0; i < HID * IN; i++) W1[i] = 0.4 * sin(1.3 * i);
  for (int i = 0; i < OUT * HID; i++) W2[i] = 0.5 * cos(0.7 * i);
  for (int i = 0; i < HID; i++) B1[i] = 0.1 * i;
  for (int i = 0; i < OUT; i++) B2[i] = -0.05 * i;
  for (int i = 0; i < IN; i++) X[i] = 1.0 - 0.3 * i;
  __enzyme_autodiff((void *)loss, W1, dw1, B1, db1, W2, dw2, B2, db2, enzyme_const, X, 2);
  for (int i = 0; i < HID * IN; i += 4) check_close("dL/dW1", dw1[i], fd_array(fw1, W1, i), 1e-6);
  for (int i = 0; i < HID; i++) check_close("dL/db1", db1[i], fd_array(fb1, B1, i), 1e-6);
  for (int i = 0; i < OUT * HID; i += 3) check_close("dL/dW2", dw2[i], fd_array(fw2, W2, i), 1e-6);
  for (int i = 0; i < OUT; i++) check_close("dL/db2", db2[i], fd_array(fb2, B2, i), 1e-6);
  return check_finish();
}
