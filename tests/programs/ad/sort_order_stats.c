/* A sorting-based function: sort a copy (insertion sort, data-dependent swaps), then a weighted
 * sum of the order statistics (a trimmed mean plus the median); the derivative flows through
 * the permutation to the original positions. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 15 };

static double f(const double *x, int n) {
  double s[N];
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) {
      s[j + 1] = s[j];
      j--;
    }
    s[j + 1] = key;
  }
  double trimmed = 0;
  for (int i = 2; i < n - 2; i++) trimmed += s[i] * (1.0 + 0.1 * i);
  return trimmed / (n - 4) + s[n / 2] * s[n / 2] - s[0] * s[n - 1];
}

static double fx(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = sin(2.3 * i + 0.4) * 2.0; /* distinct values */
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fx, x, i), 1e-6);
  return check_finish();
}
