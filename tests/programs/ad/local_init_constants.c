/* Local arrays initialised from constant initialisers (clang copies them from private constant
 * globals with memcpy) and then overwritten with active data; a zeroed local (memset) summed
 * into; and a local struct. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

typedef struct { double w[4]; double bias; int k; } Layer;

static double f(double x) {
  double coef[7] = {0.5, -1.0, 2.0, 0.25, -0.75, 1.5, 3.0};
  double acc[7] = {0};
  Layer l = {{1.0, 2.0, -1.0, 0.5}, 0.1, 3};
  for (int i = 0; i < 7; i++) coef[i] *= x;
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < 7; i++) acc[i] += coef[(i + r) % 7] * coef[i];
  l.bias = x * x;
  double s = l.bias;
  for (int i = 0; i < 4; i++) s += l.w[i] * acc[i + l.k];
  return s;
}

int main(void) {
  for (double x = -1.1; x < 2.0; x += 0.5) check_close("df/dx", __enzyme_autodiff((void *)f, x), fd1(f, x), 1e-6);
  return check_finish();
}
