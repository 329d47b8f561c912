/* Histogram-like updates: `omp atomic` on doubles (add, subtract), an integer count, updates clang
   writes as compare-exchange loops (multiply, divide, and max through `atomic compare`), and a
   critical section guarding a running maximum and its index. */
#include <math.h>
#include <omp.h>
#include <stdio.h>

#define N 2000
#define BINS 16

__attribute__((noinline)) void histogram(int n, const double *x, const double *w, double *h, int *count) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int b = (int)(x[i] * BINS) % BINS;
#pragma omp atomic
    h[b] += w[i];
#pragma omp atomic
    count[b]++;
#pragma omp atomic
    h[BINS] -= 0.5 * w[i];
  }
}

__attribute__((noinline)) void products(int n, const double *x, double *p, float *q) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    *p *= 1.0 + x[i] / n;
#pragma omp atomic
    *q /= 1.0f + (float)x[i] / n;
  }
}

__attribute__((noinline)) void argmax(int n, const double *x, double *best, int *where) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = sin(7.0 * x[i]) + x[i];
#pragma omp critical(best_value)
    {
      if (v > *best || (v == *best && i < *where)) {
        *best = v;
        *where = i;
      }
    }
  }
}

int main(void) {
  static double x[N], w[N], h[BINS + 1];
  static int count[BINS];
  for (int i = 0; i < N; i++) {
    x[i] = fmod(0.6180339887 * i, 1.0);
    w[i] = 1.0 + (i % 3);
  }
  histogram(N, x, w, h, count);
  double p = 1;
  float q = 1;
  products(N, x, &p, &q);
  double best = -1e300;
  int where = -1;
  argmax(N, x, &best, &where);
  for (int b = 0; b <= BINS; b++) printf("%.12g ", h[b]);
  printf("\n");
  for (int b = 0; b < BINS; b++) printf("%d ", count[b]);
  printf("\n%.12g %.6g %.12g %d\n", p, q, best, where);
  return 0;
}
