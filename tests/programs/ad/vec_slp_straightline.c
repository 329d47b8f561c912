/* Straight-line code on small fixed arrays that the SLP vectoriser packs into <2 x double> and
 * <4 x double> operations: a 4x4 matrix times a 4-vector, then a quadratic form. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);

static double f(const double *restrict m, const double *restrict v) {
  double r[4];
  r[0] = m[0] * v[0] + m[1] * v[1] + m[2] * v[2] + m[3] * v[3];
  r[1] = m[4] * v[0] + m[5] * v[1] + m[6] * v[2] + m[7] * v[3];
  r[2] = m[8] * v[0] + m[9] * v[1] + m[10] * v[2] + m[11] * v[3];
  r[3] = m[12] * v[0] + m[13] * v[1] + m[14] * v[2] + m[15] * v[3];
  double q[4];
  q[0] = r[0] * v[0];
  q[1] = r[1] * v[1];
  q[2] = r[2] * v[2];
  q[3] = r[3] * v[3];
  return (q[0] + q[1]) * (q[2] + q[3]) + r[0] * r[3] - r[1] * r[2];
}

static double M[16], V[4];
static double fm(const double *m) { return f(m, V); }
static double fv(const double *v) { return f(M, v); }

int main(void) {
  double dm[16] = {0}, dv[4] = {0};
  for (int i = 0; i < 16; i++) M[i] = sin(i + 0.5);
  for (int i = 0; i < 4; i++) V[i] = 0.3 * i - 0.2;
  __enzyme_autodiff((void *)f, M, dm, V, dv);
  for (int i = 0; i < 16; i++) check_close("df/dm", dm[i], fd_array(fm, M, i), 1e-6);
  for (int i = 0; i < 4; i++) check_close("df/dv", dv[i], fd_array(fv, V, i), 1e-6);
  return check_finish();
}
