/* Mutable globals written and read back inside the differentiated function: a global state
 * vector and a global accumulator, both carrying derivatives through memory. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
enum { N = 5 };

static double state[N];
double total; /* external linkage */
static int calls;

static double f(double x) {
  calls++;
  for (int i = 0; i < N; i++) state[i] = x * (i + 1);
  total = 0;
  for (int t = 0; t < 3; t++)
    for (int i = 0; i < N; i++) {
      state[i] = state[i] * 0.5 + sin(state[(i + 1) % N]);
      total += state[i] * state[i];
    }
  return total + state[0] * x;
}

int main(void) {
  for (double x = -0.7; x < 1.5; x += 0.55) {
    double d = __enzyme_autodiff((void *)f, x);
    check_close("df/dx", d, fd1(f, x), 1e-6);
  }
  check_close("calls", calls > 0, 1.0, 0.0);
  return check_finish();
}
