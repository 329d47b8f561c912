// CFLAGS: -fcx-limited-range
/* C99 complex arithmetic (multiplication, division, cexp-free polynomial evaluation of z^k
 * sums, conj, creal/cimag, cabs) on arrays of double _Complex: the IR works on {double, double}
 * pairs; -fcx-limited-range keeps clang from calling __muldc3/__divdc3. */
#include <complex.h>
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 6 };

static double f(const double complex *z, const double complex *c, int n) {
  double complex acc = 0;
  for (int i = 0; i < n; i++) {
    double complex p = 1, s = 0;
    for (int k = 0; k < 4; k++) {
      s += c[k] * p;
      p *= z[i];
    }
    acc += s / (1.0 + z[i] * conj(z[i]));
  }
  return creal(acc) * cimag(acc) + 0.5 * cabs(acc) + creal(acc * acc);
}

static double complex Z[N], C[4];
static double fd(const double *unused) { (void)unused; return f(Z, C, N); }

int main(void) {
  double complex dz[N] = {0}, dc[4] = {0};
  for (int i = 0; i < N; i++) Z[i] = 0.3 * i - 0.7 + I * (0.2 - 0.15 * i);
  for (int k = 0; k < 4; k++) C[k] = 1.0 / (k + 1) + I * 0.1 * k;
  __enzyme_autodiff((void *)f, Z, dz, C, dc, N);
  for (int i = 0; i < N; i++) {
    check_close("df/dre z", creal(dz[i]), fd_array(fd, (double *)&Z[i], 0), 1e-6);
    check_close("df/dim z", cimag(dz[i]), fd_array(fd, (double *)&Z[i] + 1, 0), 1e-6);
  }
  for (int k = 0; k < 4; k++) {
    check_close("df/dre c", creal(dc[k]), fd_array(fd, (double *)&C[k], 0), 1e-6);
    check_close("df/dim c", cimag(dc[k]), fd_array(fd, (double *)&C[k] + 1, 0), 1e-6);
  }
  return check_finish();
}
