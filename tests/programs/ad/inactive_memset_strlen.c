/* Integer and string library calls inside differentiated code: memset and memcpy of int
 * arrays (a histogram of bucket counts), strlen, strcmp and strncmp of the mode string, snprintf
 * into a local char buffer, atoi, abs and labs.  Their results steer and scale the active
 * computation but carry no derivative. */
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 9, B = 8 };

static double f(const double *x, int n, const char *mode) {
  int hist[B], seen[B];
  memset(hist, 0, sizeof hist);
  for (int i = 0; i < n; i++) hist[(int)(fabs(x[i]) * 3.0) & (B - 1)]++;
  memcpy(seen, hist, sizeof seen);
  size_t len = strlen(mode);
  int absolute = strcmp(mode, "absolute") == 0;
  int prefixed = strncmp(mode, "abs", 3) == 0;
  char label[32];
  snprintf(label, sizeof label, "%s-%d", mode, n);
  int digits = atoi(label + len + 1);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int b = (int)(fabs(x[i]) * 3.0) & (B - 1);
    double v = absolute ? fabs(x[i]) : x[i];
    s += v * v * x[(i + 1) % n] / seen[b];
  }
  return s * (double)len + prefixed * digits * s + abs(-3) * labs(-2L) * x[0];
}

static float g(const float *x, const int *idx, int n) {
  int used[N];
  memset(used, 0, sizeof used);
  float s = 0;
  for (int i = 0; i < n; i++) {
    if (used[idx[i]]) continue;
    used[idx[i]] = 1;
    s += x[idx[i]] * x[i];
  }
  return s;
}

/* Away from bucket edges (multiples of 1/3 in |x|). */
static double X[N] = {0.2, -0.5, 0.9, 1.2, -1.5, 0.1, 2.2, -0.8, 0.45};
static const char *MODE;
static double f_x(const double *x) { return f(x, N, MODE); }

int main(void) {
  static const char *modes[3] = {"absolute", "abstract", "signed"};
  for (int m = 0; m < 3; m++) {
    MODE = modes[m];
    double dx[N] = {0};
    __enzyme_autodiff_v((void *)f, enzyme_dup, X, dx, enzyme_const, N, enzyme_const, MODE);
    for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);
  }

  float y[N], dy[N] = {0};
  int idx[N] = {2, 0, 2, 5, 8, 5, 1, 0, 3};
  double want[N] = {0};
  int used[N] = {0};
  for (int i = 0; i < N; i++) y[i] = 0.25f * i - 1.0f;
  for (int i = 0; i < N; i++) {
    if (used[idx[i]]) continue;
    used[idx[i]] = 1;
    want[idx[i]] += y[i];
    want[i] += y[idx[i]];
  }
  __enzyme_autodiff_v((void *)g, enzyme_dup, y, dy, enzyme_const, idx, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dg/dy", dy[i], want[i], 1e-6);
  return check_finish();
}
