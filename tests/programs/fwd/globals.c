/* A constant global table (zero tangent) and a mutable global that carries data between calls
 * inside the differentiated function. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

static const double weights[5] = {0.5, 1.5, -0.25, 2.0, 1.0};
double state[5];

static void store_state(const double *x, int n) {
  for (int i = 0; i < n; i++) state[i] = x[i] * weights[i];
}

double f(const double *x, int n) {
  store_state(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += state[i] * state[(i + 2) % n] + weights[i] * exp(state[i]);
  return s;
}

int main(void) {
  double x[5] = {0.2, -0.3, 0.9, 0.1, 0.4}, v[5] = {1, 2, -1, 0, 0.5}, dx[5];
  for (int i = 0; i < 5; i++) dx[i] = v[i];
  check_close("df.v", __enzyme_fwddiff((void *)f, x, dx, 5), fd_dir(f, x, v, 5), 1e-6);
  return check_finish();
}
