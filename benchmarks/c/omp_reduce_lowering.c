/* The cost of a parallel region's reduction, per region (microseconds, the best of 15 trials of
   2000 calls, n = 512): clang's own lowering (libomp's __kmpc_reduce protocol) against the same
   program through `xenzyme-opt -p enzyme` (lower-par: the combine in a critical section), and
   hand-written variants with one atomic per element or a critical section.  Not part of
   `make bench`; run it by hand:

     clang-19 -O2 -fopenmp omp_reduce_lowering.c -o ref
     xenzyme-opt omp_reduce_lowering.c -p enzyme -t obj -o xz.o && clang-19 xz.o -fopenmp -o xz
     for t in 1 2 4; do OMP_NUM_THREADS=$t ./ref; OMP_NUM_THREADS=$t ./xz; done

   Figures: xenzyme/transforms/lower_par.py. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define K 8
#define KB 256
__attribute__((noinline)) double dot(int n, const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
__attribute__((noinline)) double dot_atomic(int n, const double *x) {
  double s = 0;
#pragma omp parallel
  { double l = 0;
#pragma omp for nowait
    for (int i = 0; i < n; i++) l += x[i] * x[i];
#pragma omp atomic
    s += l; }
  return s;
}
__attribute__((noinline)) double dot_critical(int n, const double *x) {
  double s = 0;
#pragma omp parallel
  { double l = 0;
#pragma omp for nowait
    for (int i = 0; i < n; i++) l += x[i] * x[i];
#pragma omp critical
    s += l; }
  return s;
}
__attribute__((noinline)) void hist(int n, const double *x, double *h) {
#pragma omp parallel for reduction(+ : h[0 : K])
  for (int i = 0; i < n; i++) h[i % K] += x[i];
}
__attribute__((noinline)) void hist_atomic(int n, const double *x, double *h) {
#pragma omp parallel
  { double l[K] = {0};
#pragma omp for nowait
    for (int i = 0; i < n; i++) l[i % K] += x[i];
    for (int k = 0; k < K; k++) {
#pragma omp atomic
      h[k] += l[k]; } }
}
__attribute__((noinline)) void histb(int n, const double *x, double *h) {
#pragma omp parallel for reduction(+ : h[0 : KB])
  for (int i = 0; i < n; i++) h[i % KB] += x[i];
}
__attribute__((noinline)) void histb_atomic(int n, const double *x, double *h) {
#pragma omp parallel
  { double l[KB] = {0};
#pragma omp for nowait
    for (int i = 0; i < n; i++) l[i % KB] += x[i];
    for (int k = 0; k < KB; k++) {
#pragma omp atomic
      h[k] += l[k]; } }
}
__attribute__((noinline)) double vmax(int n, const double *x) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static double x_[512], h_[KB], acc_;
static void b_dot(void) { acc_ += dot(512, x_); }
static void b_dot_atomic(void) { acc_ += dot_atomic(512, x_); }
static void b_dot_critical(void) { acc_ += dot_critical(512, x_); }
static void b_hist(void) { hist(512, x_, h_); }
static void b_hist_atomic(void) { hist_atomic(512, x_, h_); }
static void b_histb(void) { histb(512, x_, h_); }
static void b_histb_atomic(void) { histb_atomic(512, x_, h_); }
static void b_max(void) { acc_ += vmax(512, x_); }
int main(void) {
  void (*f[])(void) = {b_dot, b_dot_atomic, b_dot_critical, b_hist, b_hist_atomic, b_histb, b_histb_atomic, b_max};
  const char *names[] = {"sum", "sum-atomic", "sum-critical", "h8", "h8-atomic", "h256", "h256-atomic", "max"};
  double best[8];
  for (int k = 0; k < 8; k++) best[k] = 1e30;
  for (int i = 0; i < 512; i++) x_[i] = 1.0 / (i + 1);
  for (int trial = 0; trial < 15; trial++)
    for (int k = 0; k < 8; k++) {
      double t0 = now();
      for (int r = 0; r < 2000; r++) f[k]();
      double t = (now() - t0) / 2000 * 1e6;
      if (t < best[k]) best[k] = t;
    }
  for (int k = 0; k < 8; k++) printf("%s %.2f  ", names[k], best[k]);
  printf("\n");
  return acc_ < 0;
}
