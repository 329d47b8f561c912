/* Work partitioned by hand with omp_get_thread_num / omp_get_num_threads, single, master,
   barriers, num_threads, proc_bind, an if() clause (the serialized region), and worksharing in a
   function called from inside a parallel region (an orphaned `omp for`). */
#include <omp.h>
#include <stdio.h>

#define N 1001

__attribute__((noinline)) void by_hand(int n, const double *x, double *y, double *partial) {
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = n * t / nt, hi = n * (t + 1) / nt;
    double s = 0;
    for (int i = lo; i < hi; i++) {
      y[i] = 2 * x[i];
      s += y[i];
    }
    partial[t] = s;
#pragma omp barrier
#pragma omp single
    {
      double total = 0;
      for (int k = 0; k < nt; k++) total += partial[k];
      partial[64] = total;
    }
#pragma omp master
    partial[65] = nt;
  }
}

__attribute__((noinline)) void three_threads(int n, double *y) {
#pragma omp parallel for num_threads(3) proc_bind(close)
  for (int i = 0; i < n; i++) y[i] += omp_get_num_threads();
}

__attribute__((noinline)) void maybe_parallel(int n, double *y) {
#pragma omp parallel for if (n > 500)
  for (int i = 0; i < n; i++) y[i] = y[i] * 0.5 + 1;
}

__attribute__((noinline)) void shift(int n, double *y, double c) {
#pragma omp for
  for (int i = 0; i < n; i++) y[i] += c;
}

__attribute__((noinline)) void orphaned(int n, double *y) {
#pragma omp parallel
  {
    shift(n, y, 1.5);
    shift(n, y, -0.25);
  }
}

int main(void) {
  static double x[N], y[N], partial[66];
  for (int i = 0; i < N; i++) x[i] = (i % 17) * 0.25;
  by_hand(N, x, y, partial);
  three_threads(N, y);
  maybe_parallel(N, y);
  maybe_parallel(100, y);
  orphaned(N, y);
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * (1 + i % 7);
  printf("%.12g %.12g %.12g\n", s, partial[64], partial[65]);
  return 0;
}
