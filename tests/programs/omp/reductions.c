/* Reductions as Enzyme users write them: sum, product, max and min (double and float), an
   integer count, two variables in one clause, an array section, and a blocking reduction of an
   `omp for` inside a parallel region. */
#include <math.h>
#include <omp.h>
#include <stdio.h>

#define N 1000

__attribute__((noinline)) double dot(int n, const double *x, const double *y) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

__attribute__((noinline)) double product(int n, const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++) p *= 1.0 + x[i] / n;
  return p;
}

__attribute__((noinline)) double maximum(int n, const double *x) {
  double m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, x[i]);
  return m;
}

__attribute__((noinline)) float minimum(int n, const float *x) {
  float m = INFINITY;
#pragma omp parallel for reduction(min : m)
  for (int i = 0; i < n; i++) m = x[i] < m ? x[i] : m;
  return m;
}

__attribute__((noinline)) int count_positive(int n, const double *x) {
  int c = 0;
#pragma omp parallel for reduction(+ : c)
  for (int i = 0; i < n; i++) c += x[i] > 0;
  return c;
}

__attribute__((noinline)) void moments(int n, const double *x, double *out) {
  double s = 0, q = 0;
#pragma omp parallel for reduction(+ : s, q)
  for (int i = 0; i < n; i++) {
    s += x[i];
    q += x[i] * x[i];
  }
  out[0] = s;
  out[1] = q;
}

__attribute__((noinline)) void histogram(int n, const double *x, double *h) {
#pragma omp parallel for reduction(+ : h[0 : 8])
  for (int i = 0; i < n; i++) h[(int)(fabs(x[i]) * 3) & 7] += x[i];
}

__attribute__((noinline)) double logsumexp(int n, const double *x) {
  double m = -INFINITY, s = 0;
#pragma omp parallel
  {
#pragma omp for reduction(max : m)
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
  }
  return m + log(s);
}

int main(void) {
  static double x[N], y[N], h[8];
  static float xf[N];
  for (int i = 0; i < N; i++) {
    x[i] = sin(0.37 * i) * 2.5;
    y[i] = cos(0.11 * i);
    xf[i] = (float)(x[i] * y[i]);
  }
  double mo[2];
  moments(N, x, mo);
  histogram(N, x, h);
  printf("%.12g %.12g %.12g %.9g %d\n", dot(N, x, y), product(N, x), maximum(N, x), minimum(N, xf),
         count_positive(N, x));
  printf("%.12g %.12g %.12g\n", mo[0], mo[1], logsumexp(N, x));
  for (int k = 0; k < 8; k++) printf("%.12g ", h[k]);
  printf("\n");
  return 0;
}
