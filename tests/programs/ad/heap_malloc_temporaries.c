/* Heap temporaries inside the differentiated function: a malloc'd array of doubles, a calloc'd
 * accumulator, a float buffer, and a buffer freed halfway through while a second one lives on. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

static double pairwise(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[(i + 1) % n];
  free(t);
  return s;
}

static double histogram(const double *x, int n) {
  double *acc = calloc(4, sizeof(double)); /* starts zero: only += into it */
  for (int i = 0; i < n; i++) acc[i % 4] += x[i] * x[i];
  double s = 0;
  for (int k = 0; k < 4; k++) s += sqrt(acc[k] + 1.0);
  free(acc);
  return s;
}

static double single_precision(const double *x, int n) {
  float *t = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) t[i] = (float)exp(x[i] * 0.5);
  double s = 0;
  for (int i = n - 1; i >= 0; i--) s = s * 0.5 + (double)t[i];
  free(t);
  return s;
}

static double two_buffers(const double *x, int n) {
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) b[i] = a[i] + a[n - 1 - i] * x[i];
  free(a);
  double s = 0;
  for (int i = 0; i < n; i++) s += cos(b[i]);
  free(b);
  return s;
}

/* __enzyme_autodiff needs the function itself (a constant), hence a macro. */
#define CHECK(f, x, n)                                                        \
  do {                                                                        \
    double dx[8] = {0};                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);         \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), 1e-6); \
  } while (0)

int main(void) {
  double x[7] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9, 0.05};
  CHECK(pairwise, x, 7);
  CHECK(histogram, x, 7);
  { /* float rounding spoils finite differences here: d/dx_i = 0.5^i * exp(x_i / 2) / 2 */
    double dx[8] = {0};
    __enzyme_autodiff((void *)single_precision, enzyme_dup, x, dx, enzyme_const, 7);
    for (int i = 0; i < 7; i++) check_close("single_precision", dx[i], ldexp(0.5 * exp(0.5 * x[i]), -i), 1e-6);
  }
  CHECK(two_buffers, x, 7);
  return check_finish();
}
