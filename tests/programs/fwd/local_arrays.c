/* Local arrays (allocas with zeroed shadows), memcpy and memset on them. */
#include <string.h>
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

double f(const double *x, int n) {
  double buf[16], tmp[16];
  memset(buf, 0, sizeof buf);
  memcpy(tmp, x, n * sizeof(double));
  for (int i = 0; i < n; i++) buf[(3 * i) % 16] += tmp[i] * tmp[i];
  for (int i = 0; i < 16; i++) buf[i] = sqrt(buf[i] + 1.0);
  double s = 0;
  for (int i = 0; i < 16; i++) s += buf[i] * (i + 1);
  return s;
}

int main(void) {
  double x[8] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8}, v[8] = {1, 1, 1, -1, 0.5, 2, 0, 1}, dx[8];
  for (int i = 0; i < 8; i++) dx[i] = v[i];
  check_close("df.v", __enzyme_fwddiff((void *)f, x, dx, 8), fd_dir(f, x, v, 8), 1e-6);
  return check_finish();
}
