/* Dynamically scheduled loops: dynamic, dynamic with a chunk, guided (unsigned), runtime, and a
   lastprivate variable whose value comes from the thread that ran the last iteration. */
#include <math.h>
#include <omp.h>
#include <stdio.h>

#define N 997

__attribute__((noinline)) void work_dynamic(int n, const double *x, double *y) {
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; i++) y[i] = sin(x[i]) + x[i];
}

__attribute__((noinline)) void work_chunked(int n, const double *x, double *y) {
#pragma omp parallel for schedule(dynamic, 5)
  for (int i = 0; i < n; i++) y[i] += x[i] * x[i];
}

__attribute__((noinline)) void work_guided(unsigned n, const double *x, double *y) {
#pragma omp parallel for schedule(guided)
  for (unsigned i = 0; i < n; i++) y[i] = y[i] * 0.5 + x[n - 1 - i];
}

__attribute__((noinline)) void work_runtime(long n, double *y) {
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < n; i++) y[i] = sqrt(y[i] + 1.0);
}

/* monotonic: with the default nonmonotonic dynamic schedule, libomp 19 sometimes loses the
   last-iteration flag (clang-built programs print the initial value then). */
__attribute__((noinline)) double last_value(int n, const double *x, double *y) {
  double t = -1;
#pragma omp parallel for schedule(monotonic : dynamic, 3) lastprivate(t)
  for (int i = 0; i < n; i++) {
    t = x[i] * 3;
    y[i] = t - y[i];
  }
  return t;
}

int main(void) {
  static double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = 0.001 * i * (i % 7);
  work_dynamic(N, x, y);
  work_chunked(N, x, y);
  work_guided(N, x, y);
  work_runtime(N, y);
  double t = last_value(N, x, y);
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * (1 + i % 4);
  printf("%.12g %.12g\n", s, t);
  return 0;
}
