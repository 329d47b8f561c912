/* A state copied from constant memory into heap buffers that called functions then update in
 * place (the shape of a recurrent network's step): the copy's adjoint ends at the constant. */
#include "check.h"
#include <string.h>

extern void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static void step(int b, const double *w, double *state, double *y) {
  for (int i = 0; i < b; i++) state[i] = tanh(state[i] * w[i] + w[b + i]);
  for (int i = 0; i < b; i++) y[i] = state[i] * state[(i + 1) % b];
}

static double run(const double *w, const double *state0, int b) {
  double *s = malloc(sizeof(double) * b);
  double *y = malloc(sizeof(double) * b);
  memcpy(s, state0, sizeof(double) * b);
  double total = 0;
  for (int t = 0; t < 3; t++) {
    step(b, w, s, y);
    for (int i = 0; i < b; i++) total += y[i] * (i + 1);
  }
  free(s);
  free(y);
  return total;
}

static const double S0[4] = {0.2, -0.4, 0.6, 0.1};
static double run_w(const double *w) { return run(w, S0, 4); }

int main(void) {
  double w[8] = {0.9, -0.3, 0.5, 1.1, 0.05, -0.1, 0.2, 0.3}, dw[8] = {0};
  __enzyme_autodiff((void *)run, enzyme_dup, w, dw, enzyme_const, S0, enzyme_const, 4);
  for (int i = 0; i < 8; i++) check_close("d run / dw", dw[i], fd_array(run_w, w, i), 1e-6);
  return check_finish();
}
