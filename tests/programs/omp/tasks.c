/* Constructs raise-openmp leaves to the runtime -- tasks, taskwait, taskloop, ordered,
   copyprivate -- next to raised ones in the same regions: no derivative request reaches them, so
   they pass through untouched and still run. */
#include <omp.h>
#include <stdio.h>

#define N 600

__attribute__((noinline)) void task_scale(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i += 50) {
#pragma omp task firstprivate(i)
    for (int j = i; j < i + 50 && j < n; j++) x[j] = 2 * x[j] + 1;
  }
}

__attribute__((noinline)) double task_sum(int n, const double *x) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(64)
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      s += x[i];
    }
#pragma omp taskwait
  }
  return s;
}

__attribute__((noinline)) void prefix(int n, double *x) {
#pragma omp parallel for ordered schedule(dynamic, 4)
  for (int i = 1; i < n; i++) {
#pragma omp ordered
    x[i] += 0.5 * x[i - 1];
  }
}

__attribute__((noinline)) void broadcast(int n, double *x) {
#pragma omp parallel
  {
    double v;
#pragma omp single copyprivate(v)
    v = x[0] * 0.125;
#pragma omp for
    for (int i = 1; i < n; i++) x[i] -= v;
  }
}

int main(void) {
  static double x[N];
  for (int i = 0; i < N; i++) x[i] = (i % 11) * 0.1;
  task_scale(N, x);
  double s = task_sum(N, x);
  prefix(N, x);
  broadcast(N, x);
  double t = 0;
  for (int i = 0; i < N; i++) t += x[i] * (1 + i % 3);
  printf("%.12g %.12g\n", s, t);
  return 0;
}
