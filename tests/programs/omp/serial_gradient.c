/* A program with parallel regions and a derivative of a serial function in the same file: the
   parallel code runs through libomp, the gradient is checked against finite differences. */
#include <math.h>
#include <omp.h>
#include <stdio.h>

#define N 64

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;

__attribute__((noinline)) void fill(int n, double *x) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) x[i] = 0.1 * (i % 9) - 0.3;
}

__attribute__((noinline)) double energy(const double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e += sin(x[i]) * x[i] + 0.5 * x[i] * x[i];
  return e;
}

__attribute__((noinline)) double total(int n, const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

int main(void) {
  static double x[N], dx[N];
  fill(N, x);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  double err = 0, h = 1e-6;
  for (int i = 0; i < N; i++) {
    double keep = x[i];
    x[i] = keep + h;
    double up = energy(x, N);
    x[i] = keep - h;
    double down = energy(x, N);
    x[i] = keep;
    err = fmax(err, fabs((up - down) / (2 * h) - dx[i]));
  }
  printf("%.12g %.12g %s\n", total(N, x), total(N, dx), err < 1e-6 ? "gradient ok" : "gradient WRONG");
  return 0;
}
